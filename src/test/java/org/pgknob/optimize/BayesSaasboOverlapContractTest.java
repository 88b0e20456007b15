package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;
import org.pgknob.optimize.acquisition.AcquisitionMaximizer;
import org.pgknob.optimize.model.CategoricalKernel;
import org.pgknob.optimize.model.SaasboFitter;

/**
 * The contract for {@code prior=saasbo:every,categorical=overlap} (the chain at every observation,
 * each categorical knob one input under the sparsity prior), on the contract's mixed space with an
 * enum and a bool, with a short chain as BayesSaasboContractTest's.
 */
class BayesSaasboOverlapContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return new Bayes(
        spec,
        new SaasboFitter(64, 16, 32, true, false).withCategoricalKernel(CategoricalKernel.OVERLAP),
        AcquisitionMaximizer.Settings.defaults(),
        Bayes.INITIAL_CAP);
  }

  @Test
  void theOverlapOptionReachesTheSaasboFitters() {
    for (String prior : new String[] {"saasbo", "saasbo:every", "saasbo:median"}) {
      SaasboFitter fitter =
          assertInstanceOf(
              SaasboFitter.class, Optimizers.surrogate(SurrogateKind.GP, prior, "overlap"));
      assertEquals(CategoricalKernel.OVERLAP, fitter.categoricalKernel(), prior);
    }
    SaasboFitter oneHot =
        assertInstanceOf(
            SaasboFitter.class, Optimizers.surrogate(SurrogateKind.GP, "saasbo:every", "onehot"));
    assertEquals(CategoricalKernel.ONE_HOT, oneHot.categoricalKernel());
  }
}
