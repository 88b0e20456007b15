package org.pgknob.optimize.acquisition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

class LogExpectedImprovementTest {
  private static final NormalDistribution N = new NormalDistribution(0, 1);

  /** Textbook EI for maximization. */
  private static double ei(double mean, double sd, double best) {
    double z = (mean - best) / sd;
    return sd * (N.density(z) + z * N.cumulativeProbability(z));
  }

  @Test
  void agreesWithTheLogOfExpectedImprovementWhereThatIsRepresentable() {
    for (double z = -20; z <= 6; z += 0.25) {
      double sd = 0.7;
      double best = 1.0;
      double mean = best + z * sd;
      double direct = ei(mean, sd, best);
      if (direct > 1e-280) {
        double log = LogExpectedImprovement.logEi(mean, sd, best);
        assertEquals(Math.log(direct), log, 1e-6 * Math.max(1, Math.abs(log)), "z = " + z);
      }
    }
  }

  @Test
  void staysFiniteAndOrderedFarInTheTail() {
    double previous = Double.NEGATIVE_INFINITY;
    for (double z : new double[] {-1e12, -1e9, -1e7, -1e4, -1e2, -40, -38, -30, -5}) {
      double v = LogExpectedImprovement.logH(z);
      assertTrue(Double.isFinite(v), "log h(" + z + ") = " + v);
      assertTrue(v > previous, "log h must increase with z: " + z);
      previous = v;
    }
    // where EI underflows to 0, candidates still differ
    assertEquals(0.0, ei(-40, 1, 0));
    assertTrue(LogExpectedImprovement.logEi(-40, 1, 0) > LogExpectedImprovement.logEi(-41, 1, 0));
  }

  @Test
  void tailFollowsTheAsymptote() {
    // h(z) ~ phi(z) / z^2 as z -> -infinity
    double z = -1e5;
    double asymptote = -0.5 * z * z - 0.5 * Math.log(2 * Math.PI) - 2 * Math.log(-z);
    assertEquals(asymptote, LogExpectedImprovement.logH(z), 1e-6 * Math.abs(asymptote));
  }

  @Test
  void logCdfIsAccurateInBothRegimes() {
    for (double z = -30; z <= 5; z += 0.5) {
      double direct = N.cumulativeProbability(z);
      if (direct > 1e-300) {
        assertEquals(
            Math.log(direct),
            LogExpectedImprovement.logCdf(z),
            1e-7 * Math.max(1, Math.abs(Math.log(direct))),
            "z = " + z);
      }
    }
    assertTrue(Double.isFinite(LogExpectedImprovement.logCdf(-1e4)));
  }
}
