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
    assertInertLongRelevantShort(ls);
  }

  /**
   * The median process is one Gaussian process whose length scales are the draws' medians: on the
   * same data its inert inputs are flat (above 10) and its relevant ones short (below 5), so the
   * expected improvement it gives does not reward moves along inert inputs.
   */
  @Test
  void medianProcessIsOneProcessWithLongInertAndShortRelevantLengthScales() {
    double[][] x = points();
    GpEnsemble model = SaasboFitter.medianEveryObservation().fit(x, targets(x), 1L);
    assertEquals(1, model.members().size());
    double[] ls = model.members().get(0).hyperparameters().lengthScales();
    assertInertLongRelevantShort(ls);
  }

  /** Relevant inputs' length scales below 5, inert inputs' above 10 (flat on the unit cube). */
  private static void assertInertLongRelevantShort(double[] ls) {
    for (int d = 0; d < DIMS; d++) {
      if (relevant(d)) {
        assertTrue(ls[d] < 5, "relevant input " + d + ": " + Arrays.toString(ls));
      } else {
        assertTrue(ls[d] > 10, "inert input " + d + ": " + Arrays.toString(ls));
      }
    }
  }

  /**
   * With the chain at every observation, one new point moves the hyperparameters (the chain ran);
   * SAASBO's fitter of the fourth round only conditions its kept draws on it, so the model lags the
   * data by up to 4 observations.
   */
  @Test
  void everyObservationRunsTheChainWhereTheDefaultSaasboOnlyConditions() {
    double[][] x = points();
    double[] y = targets(x);
    double[][] fewer = Arrays.copyOf(x, x.length - 1);
    double[] fewerY = Arrays.copyOf(y, y.length - 1);
    SaasboFitter lagging = new SaasboFitter(64, 16, 32);
    SaasboFitter every = new SaasboFitter(64, 16, 32, true, false);
    double[] laggingBefore = firstLengthScales(lagging.fit(fewer, fewerY, 1L));
    double[] everyBefore = firstLengthScales(every.fit(fewer, fewerY, 1L));
    assertTrue(Arrays.equals(laggingBefore, firstLengthScales(lagging.fit(x, y, 2L))));
    assertTrue(!Arrays.equals(everyBefore, firstLengthScales(every.fit(x, y, 2L))));
  }

  private static double[] firstLengthScales(GpEnsemble model) {
    return model.members().get(0).hyperparameters().lengthScales();
  }

  @Test
  void medianHyperparametersAreEachCoordinatesMedian() {
    GpHyperparameters median =
        SaasboFitter.median(
            java.util.List.of(
                new GpHyperparameters(new double[] {1, 30}, 2, 0.1),
                new GpHyperparameters(new double[] {5, 10}, 1, 0.3),
                new GpHyperparameters(new double[] {3, 20}, 4, 0.2)));
    assertTrue(Arrays.equals(new double[] {3, 20}, median.lengthScales()));
    assertEquals(2, median.signalVariance());
    assertEquals(0.2, median.noiseVariance());
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
