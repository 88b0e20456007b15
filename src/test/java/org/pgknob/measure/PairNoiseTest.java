package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Validation pairs' own noise, on synthetic rounds of known run noise under a drift. */
class PairNoiseTest {
  @Test
  void thePairsGiveTheRunNoiseThatADriftInflatesInThePooledEstimate() {
    Random random = new Random(5);
    double runNoise = 0.05;
    int rounds = 8;
    int candidates = 4;
    List<double[]> ratios = new ArrayList<>();
    List<double[]> runsByConfiguration = new ArrayList<>();
    double[][] runs = new double[candidates + 1][rounds];
    for (int r = 0; r < rounds; r++) {
      // the machine's level moves by up to +-30% between rounds, not within one
      double level = 1000 * Math.exp(0.3 * Math.sin(r));
      for (int c = 0; c <= candidates; c++) {
        runs[c][r] = level * Math.exp(runNoise * random.nextGaussian());
      }
    }
    for (int c = 0; c <= candidates; c++) {
      runsByConfiguration.add(runs[c]);
    }
    for (int c = 1; c <= candidates; c++) {
      double[] d = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        d[r] = Math.log(runs[c][r] / runs[0][r]);
      }
      ratios.add(d);
    }
    RunNoise pairs = PairNoise.of(ratios);
    RunNoise pooled = PooledNoise.of(runsByConfiguration);
    assertTrue(Math.abs(pairs.logSd() / runNoise - 1) < 0.25, "pairs: " + pairs.logSd());
    assertTrue(pooled.logSd() > 3 * runNoise, "the drift counts as noise there: " + pooled);
    assertEquals(
        4 * candidates * (rounds - 1) / (candidates + 3),
        pairs.degreesOfFreedom(),
        "4/7 of 28: the candidates share the defaults' runs");
    assertEquals(candidates * rounds, pairs.runs());
    assertEquals(candidates, pairs.configurations());
  }

  @Test
  void overManyValidationsTheEstimateIsUnbiasedForOneRunsVariance() {
    Random random = new Random(9);
    double runNoise = 0.07;
    double sumOfVariances = 0;
    int validations = 2000;
    for (int v = 0; v < validations; v++) {
      RunNoise n = PairNoise.of(validation(random, 3, runNoise));
      sumOfVariances += n.logSd() * n.logSd();
    }
    double meanVariance = sumOfVariances / validations;
    assertEquals(runNoise * runNoise, meanVariance, 0.05 * runNoise * runNoise);
  }

  @Test
  void theDegreesOfFreedomAreThoseTheEstimatesSpreadShowsForCandidatesSharingTheDefaultsRuns() {
    // A variance estimate with df degrees of freedom varies as sigma^2 chi2(df) / df, so 2 mean^2
    // / variance of the estimates recovers df. Stated against measured, 20,000 validations each:
    // the nominal count (k candidates x 2) overstates it for several candidates, a plain halving
    // understates it for fewer than 5.
    for (int candidates = 1; candidates <= 5; candidates++) {
      Random random = new Random(31 + candidates);
      double sum = 0;
      double sumOfSquares = 0;
      int validations = 20_000;
      int stated = 0;
      for (int v = 0; v < validations; v++) {
        RunNoise n = PairNoise.of(validation(random, candidates, 0.07));
        double variance = n.logSd() * n.logSd();
        sum += variance;
        sumOfSquares += variance * variance;
        stated = n.degreesOfFreedom();
      }
      double mean = sum / validations;
      double measured = 2 * mean * mean / (sumOfSquares / validations - mean * mean);
      assertTrue(
          stated <= 1.1 * measured && stated >= 0.8 * measured,
          candidates + " candidates: stated " + stated + ", measured " + measured);
    }
  }

  @Test
  void candidatesWithFewerThanTwoPairsGiveNoSpread() {
    RunNoise none = PairNoise.of(List.of(new double[] {0.1}, new double[0]));
    assertFalse(none.known());
    RunNoise one = PairNoise.of(List.of(new double[] {0.1, -0.1}, new double[] {0.3}));
    assertTrue(one.known());
    assertEquals(1, one.degreesOfFreedom(), "never below one candidate's pairs minus one");
    assertEquals(Math.sqrt(0.02) / Math.sqrt(2), one.logSd(), 1e-12);
  }

  /**
   * One simulated validation of 3 rounds: each candidate's log ratios to the defaults' run of the
   * same round, every run with the same noise, so the candidates share the defaults' runs.
   */
  private static List<double[]> validation(Random random, int candidates, double runNoise) {
    double[] defaults = new double[3];
    for (int r = 0; r < 3; r++) {
      defaults[r] = runNoise * random.nextGaussian();
    }
    List<double[]> ratios = new ArrayList<>();
    for (int c = 0; c < candidates; c++) {
      double[] d = new double[3];
      for (int r = 0; r < 3; r++) {
        d[r] = runNoise * random.nextGaussian() - defaults[r];
      }
      ratios.add(d);
    }
    return ratios;
  }
}
