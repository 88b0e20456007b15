package org.pgknob.measure;

import java.util.Arrays;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * The median of a sample with a distribution-free confidence interval from its order statistics.
 *
 * <p>Why order statistics: on a shared machine a few rounds land on a burst of other work and their
 * ratios are far off; a t-interval's mean and spread follow those outliers, the median and this
 * interval do not. Each value falls below the true median with probability 1/2, so the number below
 * it is Binomial(n, 1/2), and [x(k), x(n+1-k)] (1-based, sorted) covers the median with probability
 * 1 - 2 P(Binomial(n, 1/2) < k). The largest such k whose coverage is at least the confidence asked
 * gives the interval; no resampling, no seed, the same answer every time.
 *
 * @param median the sample median (the mean of the two middle values for an even count)
 * @param low lower end: the k-th smallest value
 * @param high upper end: the k-th largest value
 * @param n how many values it rests on
 * @param coverage the interval's exact coverage, at least the confidence asked
 */
public record MedianInterval(double median, double low, double high, int n, double coverage) {

  /**
   * @throws IllegalArgumentException when no pair of order statistics reaches {@code confidence}
   *     (at 95%, fewer than 6 values), or a value is not finite
   */
  public static MedianInterval of(double[] values, double confidence) {
    int n = values.length;
    double[] sorted = values.clone();
    for (double v : sorted) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("values must be finite, but got " + v);
      }
    }
    Arrays.sort(sorted);
    BinomialDistribution below = new BinomialDistribution((RandomGenerator) null, n, 0.5);
    int k = 0;
    double coverage = 0;
    for (int candidate = 1; candidate <= n / 2; candidate++) {
      double c = 1 - 2 * below.cumulativeProbability(candidate - 1);
      if (c < confidence) {
        break;
      }
      k = candidate;
      coverage = c;
    }
    if (k == 0) {
      throw new IllegalArgumentException(
          "a "
              + confidence
              + " interval of the median needs more values: "
              + n
              + " give at most "
              + (n < 2 ? 0 : 1 - 2 * below.cumulativeProbability(0))
              + " (6 values reach 0.95)");
    }
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    return new MedianInterval(median, sorted[k - 1], sorted[n - k], n, coverage);
  }

  /** True when the whole interval lies within {@code lo} and {@code hi}. */
  public boolean within(double lo, double hi) {
    return low >= lo && high <= hi;
  }

  /** True when the whole interval lies outside {@code lo} and {@code hi}. */
  public boolean outside(double lo, double hi) {
    return high < lo || low > hi;
  }
}
