package org.pgknob.optimize;

import java.util.Map;

class BayesOverlapKernelContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create("bayes", spec, Map.of("surrogate", "gp", "categorical", "overlap"));
  }
}
