package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PairedRatioTest {
  @Test
  void exactValuesOfThreePairs() {
    double[] a = {100, 100, 100};
    double[] b = {110, 120, 115};
    PairedRatio r = PairedRatio.of(a, b, 0.95);
    double[] d = {Math.log(1.1), Math.log(1.2), Math.log(1.15)};
    double mean = (d[0] + d[1] + d[2]) / 3;
    double sd = Stats.sampleSd(d);
    double half = 4.302652729911275 * sd / Math.sqrt(3); // t(0.975, 2)
    assertEquals(Math.exp(mean), r.estimate(), 1e-12);
    assertEquals(Math.exp(mean - half), r.low(), 1e-9);
    assertEquals(Math.exp(mean + half), r.high(), 1e-9);
    assertEquals(2, r.degreesOfFreedom());
    assertTrue(r.excludesOne());
  }

  @Test
  void intervalsCoverTheTrueRatioAtTheirConfidenceUnderDriftThatPairsCancel() {
    Random random = new Random(21);
    double truth = 1.1;
    int covered = 0;
    int coveredPooled = 0;
    int sessions = 2000;
    for (int s = 0; s < sessions; s++) {
      double[] a = new double[4];
      double[] b = new double[4];
      for (int i = 0; i < 4; i++) {
        double level = 2000 * (1 + 0.12 * Math.sin(i + s)); // drift shared within the pair
        a[i] = level * Math.exp(0.07 * random.nextGaussian());
        b[i] = truth * level * Math.exp(0.07 * random.nextGaussian());
      }
      PairedRatio own = PairedRatio.of(a, b, 0.95);
      covered += own.low() <= truth && truth <= own.high() ? 1 : 0;
      // a pooled estimate of the same noise, from 12 degrees of freedom
      double[] repeat = new double[13];
      for (int i = 0; i < repeat.length; i++) {
        repeat[i] = 1500 * Math.exp(0.07 * random.nextGaussian());
      }
      PairedRatio pooled = PairedRatio.of(a, b, 0.95, PooledNoise.of(List.of(repeat)));
      coveredPooled += pooled.low() <= truth && truth <= pooled.high() ? 1 : 0;
      // 12 pooled and 3 own; 11 pooled in the 1% of sessions whose most outlying repeat is left out
      assertTrue(pooled.degreesOfFreedom() == 15 || pooled.degreesOfFreedom() == 14);
    }
    assertEquals(0.95, covered / (double) sessions, 0.015);
    assertEquals(0.95, coveredPooled / (double) sessions, 0.015);
  }

  @Test
  void pooledNoiseNarrowsTheIntervalOfFewPairs() {
    double[] a = {1000, 1010};
    double[] b = {1080, 1130};
    PairedRatio own = PairedRatio.of(a, b, 0.95);
    PairedRatio pooled = PairedRatio.of(a, b, 0.95, new RunNoise(0.03, 20, 26, 4));
    assertFalse(own.excludesOne(), "1 degree of freedom: " + own);
    assertTrue(pooled.excludesOne(), "21 degrees of freedom: " + pooled);
    assertTrue(pooled.halfWidth() < own.halfWidth() / 3);
  }

  @Test
  void badInputIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> PairedRatio.of(new double[] {1}, new double[] {2}, 0.95));
    assertThrows(
        IllegalArgumentException.class,
        () -> PairedRatio.of(new double[] {1, 2}, new double[] {2}, 0.95));
    assertThrows(
        IllegalArgumentException.class,
        () -> PairedRatio.of(new double[] {1, 0}, new double[] {2, 3}, 0.95));
  }

  /** One run of the noise benchmark's workload: 7% log-normal noise, 5% of runs 30% low. */
  private static double benchRun(Random random) {
    return 1000 * Math.exp(0.07 * random.nextGaussian()) * (random.nextDouble() < 0.05 ? 0.7 : 1);
  }

  @Test
  void equalConfigurationsUnderOccasionalDropsAreCalledDifferentInAtMostFivePercent() {
    Random random = new Random(16);
    int comparisons = 4000;
    int falseClaims = 0;
    for (int c = 0; c < comparisons; c++) {
      // the session's pooled noise: 8 configurations run 3 times each (16 degrees of freedom)
      List<double[]> repeats = new java.util.ArrayList<>();
      for (int g = 0; g < 8; g++) {
        repeats.add(new double[] {benchRun(random), benchRun(random), benchRun(random)});
      }
      double[] a = {benchRun(random), benchRun(random), benchRun(random)};
      double[] b = {benchRun(random), benchRun(random), benchRun(random)};
      PairedRatio r = PairedRatio.of(a, b, 0.95, PooledNoise.of(repeats));
      falseClaims += r.excludesOne() ? 1 : 0;
      assertTrue(r.logSd() >= Stats.sampleSd(PairedRatio.logRatios(a, b)) - 1e-12);
      assertTrue(r.logSd() >= r.combinedLogSd() - 1e-12);
    }
    // with the combined spread alone: about 6% of them (a drop hits 27% of 3-pair comparisons)
    assertTrue(falseClaims <= 0.035 * comparisons, falseClaims + " of " + comparisons);
  }

  @Test
  void aPoolMadeOfTheSamePairsIsNotCountedTwice() {
    double[] a = {1000, 1010, 990, 1005, 995};
    double[] b = {1040, 1000, 1050, 1010, 1060};
    RunNoise pool = PairNoise.of(List.of(PairedRatio.logRatios(a, b)));
    PairedRatio inPool = PairedRatio.ofPairsInPool(a, b, 0.95, pool);
    PairedRatio alone = PairedRatio.of(a, b, 0.95);
    assertEquals(4, inPool.degreesOfFreedom());
    assertEquals(alone.low(), inPool.low(), 1e-12);
    assertEquals(alone.high(), inPool.high(), 1e-12);
  }

  @Test
  void equalConfigurationsComparedOnTheirOwnPairsAreCalledDifferentInAboutOneIn20() {
    // one candidate against the defaults, 5 pairs, the noise read from those pairs: the pool holds
    // them, so the t quantile must be that of 4 degrees of freedom
    Random random = new Random(11);
    int trials = 4000;
    int claimed = 0;
    int claimedCountingTwice = 0;
    for (int t = 0; t < trials; t++) {
      double[] a = new double[5];
      double[] b = new double[5];
      for (int i = 0; i < 5; i++) {
        a[i] = 1000 * Math.exp(0.07 * random.nextGaussian());
        b[i] = 1000 * Math.exp(0.07 * random.nextGaussian());
      }
      RunNoise pool = PairNoise.of(List.of(PairedRatio.logRatios(a, b)));
      claimed += PairedRatio.ofPairsInPool(a, b, 0.95, pool).excludesOne() ? 1 : 0;
      claimedCountingTwice += PairedRatio.of(a, b, 0.95, pool).excludesOne() ? 1 : 0;
    }
    double share = claimed / (double) trials;
    assertTrue(share > 0.035 && share < 0.065, "share " + share);
    assertTrue(
        claimedCountingTwice / (double) trials > 0.07, "counted twice " + claimedCountingTwice);
  }
}
