package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NoisePriorTest {
  private static double derivative(NoisePrior prior, double p) {
    double[] g = new double[1];
    prior.penalty(p, g, 0);
    return g[0];
  }

  @Test
  void gradientsMatchFiniteDifferences() {
    for (NoisePrior prior : NoisePrior.values()) {
      for (double p : new double[] {-12, -5, -4, -1, 0.5}) {
        double h = 1e-6;
        double numeric =
            (prior.penalty(p + h, new double[1], 0) - prior.penalty(p - h, new double[1], 0))
                / (2 * h);
        assertEquals(numeric, derivative(prior, p), 1e-6, prior + " at " + p);
      }
    }
  }

  @Test
  void theUsualPriorPeaksAtMinusFiveAndTheWeakOneAtMinusFourAndFallsSlower() {
    assertEquals(0, derivative(NoisePrior.USUAL, -5), 1e-12);
    assertEquals(0, derivative(NoisePrior.WEAK, -4), 1e-12);
    // four units of log variance above each mode: the weak prior charges a quarter as much
    double usual =
        NoisePrior.USUAL.penalty(-1, new double[1], 0)
            - NoisePrior.USUAL.penalty(-5, new double[1], 0);
    double weak =
        NoisePrior.WEAK.penalty(0, new double[1], 0)
            - NoisePrior.WEAK.penalty(-4, new double[1], 0);
    assertEquals(8, usual, 1e-12);
    assertEquals(2, weak, 1e-12);
    assertTrue(weak < usual);
  }

  /**
   * On the sparsity priors' data set the weak priors tell the sine's input (2) from the inert ones
   * by a factor of more than five; the parabola's (7), a third of the sine's range, they leave
   * among the inert ones at 20 points, which is why this model is the hedge's second opinion and
   * not the only one.
   */
  @Test
  void theProductFitterUnderWeakPriorsFitsTheProductKernelAloneAndShortensTheStrongInput() {
    double[][] x = TwoRelevantInputs.points();
    GpHyperparameters h =
        GpFitter.productWithWeakPriors().fit(x, TwoRelevantInputs.targets(x), 1L).hyperparameters();
    assertEquals(0, h.additiveVariance());
    double[] ls = h.lengthScales();
    int strong = TwoRelevantInputs.RELEVANT[0];
    for (int d = 0; d < ls.length; d++) {
      if (d != strong && d != TwoRelevantInputs.RELEVANT[1]) {
        assertTrue(ls[d] > 5 * ls[strong], java.util.Arrays.toString(ls));
      }
    }
  }
}
