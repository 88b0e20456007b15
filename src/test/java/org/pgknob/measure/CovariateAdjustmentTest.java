package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Regression adjustment by a per-run covariate on synthetic sessions: each run's log TPS is its
 * configuration's level plus {@code slope} times the other processes' CPU of that run (about 0.8
 * cores, varying by 0.3 from run to run) plus noise. A session holds 6 runs of the defaults
 * (baselines and reference runs), 4 of another configuration, then validation pairs of the defaults
 * (A) and a candidate (B) 5% faster.
 */
class CovariateAdjustmentTest {
  private static final double TRUE_RATIO = 1.05;
  private static final int PAIRS = 3;
  private static final int SESSIONS = 2000;

  /** One simulated session's validation: the adjusted ratio of its pairs. */
  private static AdjustedRatio session(
      Random random, double slope, double noise, double candidateCpuShift) {
    List<double[]> defaults = new ArrayList<>();
    List<double[]> other = new ArrayList<>();
    List<double[]> candidate = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      defaults.add(run(random, 1000, slope, noise, 0));
    }
    for (int i = 0; i < 4; i++) {
      other.add(run(random, 1200, slope, noise, 0));
    }
    double[] a = new double[PAIRS];
    double[] b = new double[PAIRS];
    double[] xa = new double[PAIRS];
    double[] xb = new double[PAIRS];
    for (int i = 0; i < PAIRS; i++) {
      double[] ra = run(random, 1000, slope, noise, 0);
      double[] rb = run(random, 1000 * TRUE_RATIO, slope, noise, candidateCpuShift);
      defaults.add(ra);
      candidate.add(rb);
      a[i] = ra[0];
      xa[i] = ra[1];
      b[i] = rb[0];
      xb[i] = rb[1];
    }
    List<double[][]> groups =
        List.of(
            defaults.toArray(new double[0][]),
            other.toArray(new double[0][]),
            candidate.toArray(new double[0][]));
    List<double[]> values = new ArrayList<>();
    for (double[][] g : groups) {
      double[] v = new double[g.length];
      for (int i = 0; i < g.length; i++) {
        v[i] = g[i][0];
      }
      values.add(v);
    }
    return AdjustedRatio.of(a, b, xa, xb, 0.95, PooledNoise.of(values), CovariateSlope.of(groups));
  }

  /** {value, covariate}: a run at {@code level} while other processes used about 0.8 cores. */
  private static double[] run(
      Random random, double level, double slope, double noise, double cpuShift) {
    double cpu = 0.8 + 0.3 * random.nextGaussian() + cpuShift;
    return new double[] {level * Math.exp(slope * cpu + noise * random.nextGaussian()), cpu};
  }

  private static boolean covers(PairedRatio r) {
    return r.low() <= TRUE_RATIO && TRUE_RATIO <= r.high();
  }

  @Test
  void
      theAdjustedIntervalCoversTheTrueRatioAt95PercentAndIsNarrowerWhenTheCovariateExplainsTheNoise() {
    // slope -0.3 per core: the covariate explains 0.09^2 / (0.09^2 + 0.06^2) = 69% of the noise
    Random random = new Random(16);
    int covered = 0;
    double adjustedWidth = 0;
    double plainWidth = 0;
    for (int s = 0; s < SESSIONS; s++) {
      AdjustedRatio r = session(random, -0.3, 0.06, 0);
      covered += covers(r.used()) ? 1 : 0;
      adjustedWidth += r.used().halfWidth();
      plainWidth += r.plain().halfWidth();
    }
    assertEquals(0.95, covered / (double) SESSIONS, 0.015);
    assertTrue(
        adjustedWidth < 0.75 * plainWidth,
        "adjusted " + adjustedWidth / SESSIONS + " vs plain " + plainWidth / SESSIONS);
  }

  @Test
  void aCovariateUnrelatedToTheValuesLeavesTheIntervalNoNarrowerAndStillCovering() {
    Random random = new Random(17);
    int covered = 0;
    double adjustedWidth = 0;
    double plainWidth = 0;
    for (int s = 0; s < SESSIONS; s++) {
      AdjustedRatio r = session(random, 0, 0.08, 0);
      covered += covers(r.used()) ? 1 : 0;
      adjustedWidth += r.used().halfWidth();
      // the plain interval by the adjusted one's rule (the combined spread, not widened to the
      // pairs' own): an unrelated covariate must not narrow it
      PairedRatio p = r.plain();
      plainWidth += Stats.t(0.975, p.degreesOfFreedom()) * p.combinedLogSd() / Math.sqrt(p.pairs());
    }
    assertTrue(covered / (double) SESSIONS >= 0.935, "coverage " + covered / (double) SESSIONS);
    assertTrue(
        adjustedWidth >= 0.98 * plainWidth,
        "adjusted " + adjustedWidth / SESSIONS + " vs plain " + plainWidth / SESSIONS);
  }

  @Test
  void aCovariateTheCandidateMovesIsRefusedAndThePlainRatioUsed() {
    // the candidate's own runs raise the covariate by 1 core (3.3 times its run-to-run spread):
    // adjusting would credit it with the slope times that shift, an effect of the configuration,
    // not of the machine. (With 3 pairs a shift of 0.6 core is caught in 60% of sessions only.)
    Random random = new Random(18);
    int refused = 0;
    for (int s = 0; s < 200; s++) {
      AdjustedRatio r = session(random, -0.3, 0.06, 1.0);
      if (!r.applied()) {
        refused++;
        assertEquals(r.plain(), r.used());
        assertTrue(r.refusal().startsWith("the covariate differs between the configurations"));
      }
    }
    assertTrue(refused >= 180, "refused " + refused + " of 200");
  }

  @Test
  void theSlopeRecoversAKnownSlopeAndLosesOneDegreeOfFreedom() {
    Random random = new Random(19);
    List<double[][]> groups = new ArrayList<>();
    int runs = 0;
    for (int g = 0; g < 5; g++) {
      double[][] group = new double[8][];
      for (int i = 0; i < group.length; i++) {
        group[i] = run(random, 500 + 100 * g, -0.3, 0.05, 0);
      }
      groups.add(group);
      runs += group.length;
    }
    CovariateSlope slope = CovariateSlope.of(groups);
    assertEquals(-0.3, slope.slope(), 3 * slope.slopeSe());
    assertEquals(runs - 5 - 1, slope.residual().degreesOfFreedom());
    assertEquals(0.05, slope.residual().logSd(), 0.015);
    assertTrue(slope.varianceExplained() > 0.5);
  }

  @Test
  void withoutAVaryingCovariateThereIsNoSlopeAndNoAdjustment() {
    double[][] constant = {{1000, 0}, {1100, 0}, {900, 0}, {1050, 0}};
    CovariateSlope slope = CovariateSlope.of(List.of(constant, constant));
    assertFalse(slope.known());
    double[] a = {1000, 1100, 900};
    double[] b = {1050, 1150, 950};
    double[] x = {0, 0, 0};
    AdjustedRatio r = AdjustedRatio.of(a, b, x, x, 0.95, new RunNoise(0.05, 10, 12, 2), slope);
    assertFalse(r.applied());
    assertEquals(r.plain(), r.used());
  }
}
