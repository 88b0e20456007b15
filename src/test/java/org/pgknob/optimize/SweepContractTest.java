package org.pgknob.optimize;

class SweepContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return new Sweep(spec, SweepPlan.all());
  }

  @Override
  boolean isOpenEnded() {
    return false;
  }
}
