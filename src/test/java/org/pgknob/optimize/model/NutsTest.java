package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The sampler recovers a known posterior: a correlated 2-D Gaussian with unequal scales. */
class NutsTest {
  private static final double[] MEAN = {1.5, -4};
  private static final double[] SD = {0.2, 3};
  private static final double CORRELATION = 0.7;

  /** log N(q; MEAN, Sigma) up to a constant, Sigma from SD and CORRELATION. */
  private static double logDensity(double[] q, double[] gradient) {
    double a = (q[0] - MEAN[0]) / SD[0];
    double b = (q[1] - MEAN[1]) / SD[1];
    double c = 1 - CORRELATION * CORRELATION;
    gradient[0] = -(a - CORRELATION * b) / (c * SD[0]);
    gradient[1] = -(b - CORRELATION * a) / (c * SD[1]);
    return -(a * a - 2 * CORRELATION * a * b + b * b) / (2 * c);
  }

  private static List<double[]> draws(long seed) {
    Nuts nuts = new Nuts(NutsTest::logDensity, 2, new Random(seed));
    return nuts.sample(Nuts.start(new double[] {10, 10}), 500, 4000, 1).draws();
  }

  @Test
  void drawsHaveTheTargetsMeansAndStandardDeviations() {
    List<double[]> draws = draws(3);
    assertEquals(4000, draws.size());
    for (int i = 0; i < 2; i++) {
      int d = i;
      double mean = draws.stream().mapToDouble(q -> q[d]).average().orElseThrow();
      double sd =
          Math.sqrt(
              draws.stream().mapToDouble(q -> (q[d] - mean) * (q[d] - mean)).sum()
                  / (draws.size() - 1));
      assertEquals(MEAN[d], mean, 0.1 * SD[d], "mean of coordinate " + d);
      assertEquals(SD[d], sd, 0.1 * SD[d], "sd of coordinate " + d);
    }
  }

  @Test
  void drawsHaveTheTargetsCorrelation() {
    List<double[]> draws = draws(4);
    double m0 = draws.stream().mapToDouble(q -> q[0]).average().orElseThrow();
    double m1 = draws.stream().mapToDouble(q -> q[1]).average().orElseThrow();
    double s00 = 0;
    double s11 = 0;
    double s01 = 0;
    for (double[] q : draws) {
      s00 += (q[0] - m0) * (q[0] - m0);
      s11 += (q[1] - m1) * (q[1] - m1);
      s01 += (q[0] - m0) * (q[1] - m1);
    }
    assertEquals(CORRELATION, s01 / Math.sqrt(s00 * s11), 0.05);
  }

  @Test
  void sameSeedGivesTheSameDraws() {
    List<double[]> first = draws(7);
    List<double[]> second = draws(7);
    for (int i = 0; i < first.size(); i += 97) {
      assertArrayEquals(first.get(i), second.get(i));
    }
  }
}
