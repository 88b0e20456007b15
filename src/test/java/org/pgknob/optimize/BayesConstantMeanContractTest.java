package org.pgknob.optimize;

import java.util.Map;

/** The Gaussian process with a constant prior mean ({@code mean=constant}), the old default. */
class BayesConstantMeanContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create(OptimizerKind.BAYES, spec, Map.of("mean", "constant"));
  }
}
