package org.pgknob.optimize;

import java.util.Map;

class BayesRfContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create(OptimizerKind.BAYES, spec, Map.of("surrogate", "rf"));
  }
}
