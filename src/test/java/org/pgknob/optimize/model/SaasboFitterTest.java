package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pgknob.optimize.model.TwoRelevantInputs.DIMS;
import static org.pgknob.optimize.model.TwoRelevantInputs.points;
import static org.pgknob.optimize.model.TwoRelevantInputs.relevant;
import static org.pgknob.optimize.model.TwoRelevantInputs.targets;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fully Bayesian SAAS model: on a fixed small data set the posterior median length scales of
 * the inputs that do nothing are long and those of the inputs that matter short ({@link
 * TwoRelevantInputs}).
 */
class SaasboFitterTest {
  /**
   * Input 7's effect is a parabola of range 0.7 against input 2's sine of range 2, so its length
   * scale is the longer of the two relevant ones (about 3, a quadratic needs no short one); the ten
   * inert inputs' medians sit above 10, where the unit cube is flat to the kernel.
   */
  @Test
  void posteriorMedianLengthScalesAreLongForInertInputsAndShortForRelevantOnes() {
    double[][] x = points();
    GpEnsemble model = new SaasboFitter().fit(x, targets(x), 1L);
    assertEquals(SaasboFitter.KEPT, model.members().size());
    double[] ls = model.medianLengthScales();
    for (int d = 0; d < DIMS; d++) {
      if (relevant(d)) {
        assertTrue(ls[d] < 5, "relevant input " + d + ": " + Arrays.toString(ls));
      } else {
        assertTrue(ls[d] > 10, "inert input " + d + ": " + Arrays.toString(ls));
      }
    }
  }

  @Test
  void logPosteriorGradientMatchesFiniteDifferences() {
    double[][] x = points();
    double[] y = targets(x);
    double[] known = new double[x.length];
    known[3] = 0.05;
    SaasPosterior posterior = new SaasPosterior(x, y, known);
    Random r = new Random(2);
    double[] q = posterior.start();
    for (int i = 0; i < q.length; i++) {
      q[i] += 0.5 * r.nextGaussian();
    }
    double[] gradient = new double[q.length];
    posterior.value(q, gradient);
    for (int i = 0; i < q.length; i++) {
      double h = 1e-5;
      double[] up = q.clone();
      double[] down = q.clone();
      up[i] += h;
      down[i] -= h;
      double numeric =
          (posterior.value(up, new double[q.length]) - posterior.value(down, new double[q.length]))
              / (2 * h);
      assertEquals(numeric, gradient[i], 1e-4 * Math.max(1, Math.abs(numeric)), "coordinate " + i);
    }
  }
}
