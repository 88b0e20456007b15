package org.pgknob.optimize;

class RandomSearchContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return new RandomSearch(spec);
  }
}
