package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class MedianIntervalTest {
  @Test
  void twelveValuesGiveTheThirdSmallestAndThirdLargestWithTheirExactCoverage() {
    double[] values = {1.07, 0.91, 1.02, 0.98, 1.30, 0.99, 1.01, 0.40, 1.04, 0.97, 1.00, 1.03};
    MedianInterval m = MedianInterval.of(values, 0.95);
    // sorted: 0.40 0.91 0.97 0.98 0.99 1.00 1.01 1.02 1.03 1.04 1.07 1.30
    assertEquals((1.00 + 1.01) / 2, m.median(), 1e-12);
    assertEquals(0.97, m.low(), 1e-12);
    assertEquals(1.04, m.high(), 1e-12);
    // 1 - 2 P(Binomial(12, 1/2) <= 2) = 1 - 2 (1 + 12 + 66) / 4096
    assertEquals(1 - 158.0 / 4096, m.coverage(), 1e-12);
    assertEquals(12, m.n());
  }

  @Test
  void anOddCountTakesTheMiddleValue() {
    MedianInterval m = MedianInterval.of(new double[] {5, 1, 4, 2, 3, 7, 6}, 0.95);
    assertEquals(4, m.median(), 1e-12);
    assertEquals(1, m.low(), 1e-12);
    assertEquals(7, m.high(), 1e-12);
  }

  @Test
  void twoWildRoundsKeepTheMedianIntervalNarrowWhereTheMeansIntervalWidens() {
    double[] burst = {0.3, 3.0, 0.98, 0.99, 1.0, 1.01, 0.99, 1.01, 0.97, 1.03};
    MedianInterval m = MedianInterval.of(burst, 0.95);
    // 10 values: [x(2), x(9)] of 0.3 0.97 0.98 0.99 0.99 1.0 1.01 1.01 1.03 3.0
    assertEquals(0.97, m.low(), 1e-12);
    assertEquals(1.03, m.high(), 1e-12);
    assertTrue(m.within(0.9, 1.1), m.toString());
    double[] ones = new double[burst.length];
    java.util.Arrays.fill(ones, 1.0);
    PairedRatio mean = PairedRatio.of(ones, burst, 0.95);
    assertFalse(mean.low() >= 0.9 && mean.high() <= 1.1, mean.toString());
  }

  @Test
  void coversTheTrueMedianOfANoisyRatioAsOftenAsItsExactCoverageSays() {
    Random random = new Random(7);
    double trueMedian = 1.05;
    int samples = 4000;
    int covered = 0;
    double coverage = 0;
    for (int s = 0; s < samples; s++) {
      double[] ratios = new double[15];
      for (int i = 0; i < ratios.length; i++) {
        ratios[i] = trueMedian * Math.exp(0.2 * random.nextGaussian());
      }
      MedianInterval m = MedianInterval.of(ratios, 0.95);
      coverage = m.coverage();
      if (m.low() <= trueMedian && trueMedian <= m.high()) {
        covered++;
      }
    }
    // 15 values: [x(4), x(12)], 1 - 2 P(Binomial(15, 1/2) <= 3) = 1 - 2 * 576 / 32768
    assertEquals(1 - 2 * 576.0 / 32768, coverage, 1e-12);
    assertEquals(coverage, covered / (double) samples, 0.012, covered + " of " + samples);
  }

  @Test
  void tooFewValuesForTheConfidenceAreRefusedWithTheCountNeeded() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> MedianInterval.of(new double[] {1, 2, 3, 4, 5}, 0.95));
    assertTrue(e.getMessage().contains("6 values reach 0.95"), e.getMessage());
  }

  @Test
  void withinAndOutsideReadTheWholeInterval() {
    MedianInterval m = new MedianInterval(1.0, 0.92, 1.12, 10, 0.98);
    assertFalse(m.within(0.9, 1.1));
    assertFalse(m.outside(0.9, 1.1));
    assertTrue(new MedianInterval(0.8, 0.7, 0.85, 10, 0.98).outside(0.9, 1.1));
  }
}
