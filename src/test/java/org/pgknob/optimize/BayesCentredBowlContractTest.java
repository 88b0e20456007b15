package org.pgknob.optimize;

import java.util.Map;

/** The bowl with its centre fitted in the most relevant inputs ({@code mean=centred}). */
class BayesCentredBowlContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create(OptimizerKind.BAYES, spec, Map.of("mean", "centred"));
  }
}
