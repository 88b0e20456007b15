package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The choice between the log scale and the values' own scale, by the models' likelihoods. */
class TargetScaleTest {
  private static final int POINTS = 30;

  /** Distance of a point from (0.3, 0.6, 0.5), squared: 0 at the optimum, about 0.6 at worst. */
  private static double bowl(double[] x) {
    return Math.pow(x[0] - 0.3, 2) + Math.pow(x[1] - 0.6, 2) + Math.pow(x[2] - 0.5, 2);
  }

  private static double[][] points(Random random) {
    double[][] x = new double[POINTS][3];
    for (double[] row : x) {
      for (int j = 0; j < row.length; j++) {
        row[j] = random.nextDouble();
      }
    }
    return x;
  }

  private static TargetTransform chosen(double[][] x, List<Double> values, Direction direction) {
    return TargetScale.choose(values, direction, x, new double[x.length], List.of(), 1);
  }

  @Test
  void throughputWhoseNoiseIsAShareOfItStaysOnTheLogScale() {
    Random random = new Random(5);
    double[][] x = points(random);
    List<Double> tps = new ArrayList<>();
    for (double[] row : x) {
      // 3000 TPS at the optimum, a tenth of it at the far corner; 4% run-to-run noise
      tps.add(3000 * Math.exp(-4 * bowl(row)) * Math.exp(0.04 * random.nextGaussian()));
    }
    assertTrue(chosen(x, tps, Direction.MAXIMIZE).log());
  }

  @Test
  void valuesNearZeroWithNoiseOfAFixedSizeKeepTheirOwnScale() {
    Random random = new Random(5);
    double[][] x = points(random);
    List<Double> values = new ArrayList<>();
    for (double[] row : x) {
      values.add(0.2 + 10 * bowl(row) + 0.08 * random.nextGaussian());
    }
    assertTrue(values.stream().allMatch(v -> v > 0), "the log must be on offer: " + values);
    assertFalse(chosen(x, values, Direction.MINIMIZE).log());
  }

  @Test
  void valuesNotAllPositiveAreNeverLogged() {
    Random random = new Random(5);
    double[][] x = points(random);
    List<Double> values = new ArrayList<>();
    for (double[] row : x) {
      values.add(-1 + 10 * bowl(row));
    }
    assertFalse(chosen(x, values, Direction.MINIMIZE).log());
  }

  @Test
  void theLogSlopeMatchesTheTransformsChangeOverASmallStep() {
    List<Double> tps = List.of(900.0, 1000.0, 1100.0, 1500.0, 200.0);
    TargetTransform t = TargetTransform.fit(tps, Direction.MAXIMIZE);
    for (double v : new double[] {300, 1000, 1400}) {
      double slope = (t.forward(v * 1.001) - t.forward(v)) / (v * 0.001);
      assertTrue(Math.abs(t.logSlope(v) - Math.log(slope)) < 1e-3, v + ": " + t.logSlope(v));
    }
  }
}
