package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.runs.Summary;

class ValidationStatsTest {
  @Test
  void ratioOfThreePairsMatchesTheHandComputedInterval() {
    // log-ratios ln 1.1, ln 1.21, 0: mean ln 1.1, sd ln 1.1, t(2, 0.975) = 4.302653
    // -> exp(ln 1.1 -/+ 4.302653 * ln 1.1 / sqrt 3) = 0.868096 .. 1.393856
    Summary.Ratio r =
        ValidationStats.ratio(new double[] {100, 200, 50}, new double[] {110, 242, 50});
    assertEquals(1.1, r.estimate(), 1e-12);
    assertEquals(0.8680956, r.low(), 1e-6);
    assertEquals(1.3938557, r.high(), 1e-6);
    assertEquals(3, r.pairs());
    assertFalse(r.excludesOne(), "a noisy 10% is not claimed");
  }

  @Test
  void equalRatiosInEveryPairGiveTheExactRatioAndNoSpread() {
    Summary.Ratio r =
        ValidationStats.ratio(
            List.of(
                new double[] {1000, 1250}, new double[] {800, 1000}, new double[] {1200, 1500}));
    assertEquals(1.25, r.estimate(), 1e-12);
    assertEquals(1.25, r.low(), 1e-12);
    assertEquals(1.25, r.high(), 1e-12);
    assertTrue(r.excludesOne());
  }

  @Test
  void intervalWidensWithNoise() {
    double[] a = {1000, 1000, 1000, 1000};
    Summary.Ratio quiet = ValidationStats.ratio(a, new double[] {1190, 1210, 1200, 1200});
    Summary.Ratio noisy = ValidationStats.ratio(a, new double[] {1000, 1440, 1100, 1300});
    assertTrue(quiet.excludesOne());
    assertTrue(
        noisy.high() - noisy.low() > 5 * (quiet.high() - quiet.low()),
        "noisy " + noisy + " vs quiet " + quiet);
  }

  @Test
  void moreConsistentPairsNarrowTheInterval() {
    double[] a3 = {100, 100, 100};
    double[] b3 = {105, 115, 110};
    double[] a6 = {100, 100, 100, 100, 100, 100};
    double[] b6 = {105, 115, 110, 105, 115, 110};
    Summary.Ratio three = ValidationStats.ratio(a3, b3);
    Summary.Ratio six = ValidationStats.ratio(a6, b6);
    assertTrue(six.high() - six.low() < three.high() - three.low());
  }

  @Test
  void refusesFewerThanTwoPairsWithAClearMessage() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () -> ValidationStats.ratio(new double[] {100}, new double[] {120}));
    assertEquals(
        "a ratio with a confidence interval needs at least 2 validation pairs, but got 1"
            + " (run at least 3 interleaved pairs (A B A B A B))",
        e.oneLine());
  }

  @Test
  void refusesNonPositiveMeasurements() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ValidationStats.ratio(new double[] {100, 0}, new double[] {120, 130}));
  }

  @Test
  void noiseIsTheMeanAndCoefficientOfVariationOfTheBaselines() {
    Summary.Noise n =
        ValidationStats.noise(new double[] {2118, 2331, 2224.5}, new double[] {4.0, 5.0, 6.0});
    assertEquals(3, n.runs());
    assertEquals(2224.5, n.tpsMean(), 1e-9);
    assertEquals(106.5 / 2224.5, n.tpsCv(), 1e-9);
    assertEquals(5.0, n.latencyMeanMs(), 1e-12);
    assertEquals(0.2, n.latencyCv(), 1e-12);
  }

  @Test
  void noisierBaselinesNeedMorePairs() {
    int quiet = ValidationStats.pairsNeeded(0.01, 1.05);
    int noisy = ValidationStats.pairsNeeded(0.04, 1.05);
    assertEquals(ValidationStats.MIN_VALIDATION_PAIRS, quiet);
    assertTrue(noisy > quiet, "noisy needs " + noisy);
    assertEquals(ValidationStats.MAX_VALIDATION_PAIRS, ValidationStats.pairsNeeded(0.25, 1.05));
  }

  @Test
  void verdictNamesGainLossOrNoise() {
    assertEquals(
        "1.25x TPS (1.20 to 1.30), gain",
        ValidationStats.verdict(new Summary.Ratio(1.25, 1.2, 1.3, 3), "TPS", false));
    assertEquals(
        "0.80x latency (0.70 to 0.90), gain",
        ValidationStats.verdict(new Summary.Ratio(0.8, 0.7, 0.9, 3), "latency", true));
    assertEquals(
        "1.02x TPS (0.95 to 1.10), within noise",
        ValidationStats.verdict(new Summary.Ratio(1.02, 0.95, 1.1, 3), "TPS", false));
    assertEquals(
        "0.90x TPS (0.85 to 0.95), loss",
        ValidationStats.verdict(new Summary.Ratio(0.9, 0.85, 0.95, 3), "TPS", false));
  }
}
