package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Observations with a known noise variance: replicates average down, imprecise ones pull less. */
class HeteroscedasticNoiseTest {
  private static final GpHyperparameters HYPER =
      new GpHyperparameters(new double[] {0.3}, 1.0, 0.01);
  private static final double[] PROBE = {0.5};

  /** Four points around the probe, then {@code copies} replicates at the probe. */
  private static double[][] points(int copies) {
    double[][] x = new double[4 + copies][];
    double[] spread = {0.0, 0.2, 0.8, 1.0};
    for (int i = 0; i < 4; i++) {
      x[i] = new double[] {spread[i]};
    }
    for (int i = 0; i < copies; i++) {
      x[4 + i] = PROBE.clone();
    }
    return x;
  }

  private static double[] values(int copies, double atProbe) {
    double[] y = new double[4 + copies];
    double[] around = {-0.5, 0.1, 0.2, -0.3};
    System.arraycopy(around, 0, y, 0, 4);
    Arrays.fill(y, 4, y.length, atProbe);
    return y;
  }

  private static double[] known(int copies, double variance) {
    double[] k = new double[4 + copies];
    Arrays.fill(k, 4, k.length, variance);
    return k;
  }

  @Test
  void replicatesTightenThePosteriorAtTheirPoint() {
    double once =
        GaussianProcess.condition(points(1), values(1, 1.0), known(1, 0.5), 0, HYPER)
            .predict(PROBE)
            .variance();
    double fourTimes =
        GaussianProcess.condition(points(4), values(4, 1.0), known(4, 0.5), 0, HYPER)
            .predict(PROBE)
            .variance();
    assertTrue(fourTimes < 0.5 * once, "once " + once + ", four times " + fourTimes);
  }

  @Test
  void fourReplicatesWeighAsOneObservationWithAQuarterOfTheirNoise() {
    // each replicate has the common noise 0.01 plus 0.5; their mean has a quarter of 0.51
    double quarter = (0.01 + 0.5) / 4 - 0.01;
    Prediction replicated =
        GaussianProcess.condition(points(4), values(4, 1.0), known(4, 0.5), 0, HYPER)
            .predict(PROBE);
    Prediction single =
        GaussianProcess.condition(points(1), values(1, 1.0), known(1, quarter), 0, HYPER)
            .predict(PROBE);
    assertEquals(single.mean(), replicated.mean(), 1e-9);
    assertEquals(single.variance(), replicated.variance(), 1e-9);
  }

  @Test
  void anImpreciseObservationPullsThePosteriorLess() {
    double precise =
        GaussianProcess.condition(points(1), values(1, 3.0), known(1, 0), 0, HYPER)
            .predict(PROBE)
            .mean();
    double imprecise =
        GaussianProcess.condition(points(1), values(1, 3.0), known(1, 4.0), 0, HYPER)
            .predict(PROBE)
            .mean();
    assertTrue(precise > 2.5, "precise " + precise);
    assertTrue(imprecise < 1.0, "imprecise " + imprecise);
  }

  @Test
  void theOptimisticVarianceBoundsTheExactOneWithKnownNoise() {
    GaussianProcess gp =
        GaussianProcess.condition(points(3), values(3, 1.0), known(3, 0.7), 0, HYPER);
    for (double t = 0; t <= 1; t += 0.05) {
      double[] p = {t};
      assertTrue(gp.optimistic(p).orElseThrow().variance() >= gp.predict(p).variance(), "at " + t);
    }
  }
}
