package org.pgknob.optimize;

import java.util.Map;

class BayesSaasboContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create("bayes", spec, Map.of("surrogate", "gp", "prior", "saasbo"));
  }
}
