package org.pgknob.optimize;

import java.util.Map;

class BayesSaasContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create(OptimizerKind.BAYES, spec, Map.of("surrogate", "gp", "prior", "saas"));
  }
}
