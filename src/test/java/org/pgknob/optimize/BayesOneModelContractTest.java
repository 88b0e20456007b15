package org.pgknob.optimize;

import java.util.Map;

/** The Gaussian process without the hedge ({@code portfolio=single}), as the session runs it. */
class BayesOneModelContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create(OptimizerKind.BAYES, spec, Map.of("portfolio", "single"));
  }
}
