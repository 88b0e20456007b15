package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;
import org.pgknob.optimize.acquisition.AcquisitionMaximizer;
import org.pgknob.optimize.model.SaasboFitter;

/**
 * The contract for {@code prior=saasbo:median} (the chain at every observation, the process at the
 * posterior median), with a short chain as BayesSaasboContractTest's: the contract is about the
 * search around the model, which here runs the chain at each suggestion.
 */
class BayesSaasboMedianContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return new Bayes(
        spec,
        new SaasboFitter(64, 16, 32, true, true),
        AcquisitionMaximizer.Settings.defaults(),
        Bayes.INITIAL_CAP);
  }

  @Test
  void theSaasboMedianPriorOptionBuildsTheFullyBayesianFitter() {
    assertInstanceOf(SaasboFitter.class, Optimizers.surrogate(SurrogateKind.GP, "saasbo:median"));
    assertInstanceOf(SaasboFitter.class, Optimizers.surrogate(SurrogateKind.GP, "saasbo:every"));
  }
}
