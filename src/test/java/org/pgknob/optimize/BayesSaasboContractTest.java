package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;
import org.pgknob.optimize.acquisition.AcquisitionMaximizer;
import org.pgknob.optimize.model.SaasboFitter;

/**
 * The contract for {@code prior=saasbo}, with a short chain (64 warm-up iterations, 64 draws): the
 * contract is about the search around the model (bounds, determinism, repeats, constraints), not
 * the posterior's accuracy, which SaasboFitterTest checks with SAASBO's full chain; the full chain
 * made this class take minutes on a loaded machine.
 */
class BayesSaasboContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return new Bayes(
        spec,
        new SaasboFitter(64, 32, 64),
        AcquisitionMaximizer.Settings.defaults(),
        Bayes.INITIAL_CAP);
  }

  @Test
  void theSaasboPriorOptionBuildsTheFullyBayesianFitter() {
    assertInstanceOf(SaasboFitter.class, Optimizers.surrogate(SurrogateKind.GP, "saasbo"));
  }
}
