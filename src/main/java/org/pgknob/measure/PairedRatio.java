package org.pgknob.measure;

/**
 * The ratio of configuration B to configuration A from runs paired in adjacent slots, with a
 * t-based confidence interval on the mean of the log ratios.
 *
 * <p>Why pairs: the two runs of a pair are measured one after the other, so the machine's slow
 * drift cancels within each pair. Why logs: ratios are what people compare, and the mean of the log
 * ratios back-transformed is the geometric mean of the per-pair ratios. The spread of the log
 * ratios comes from the pairs themselves, or, when a pooled run noise is given, from both: the
 * pooled noise (each log ratio has twice one run's variance) with its degrees of freedom, and the
 * pairs' own spread with theirs. Pooling lets two or three pairs decide, where their own spread
 * alone (1 or 2 degrees of freedom) would leave the interval wide open. The interval then uses the
 * larger of that combined spread and the pairs' own (with the combined degrees of freedom): the
 * pooled noise is the session's typical run-to-run noise, and it understates the spread of a
 * comparison that one outlying run hits (a 30% drop when a neighbour bursts); weighed by degrees of
 * freedom against 16 or more pooled ones, such a pair hardly widens the combined spread. In
 * simulated 3-pair comparisons of equal configurations (7% noise, 5% of runs 30% low, the noise
 * pooled from 8 configurations run 3 times) the combined spread alone excluded 1 in 6.2% of them,
 * the larger of the two in 2.5%. What this costs in power is what {@link DetectableEffect} states:
 * it is computed for this rule.
 *
 * @param estimate geometric mean of B / A over the pairs
 * @param low lower end of the interval
 * @param high upper end of the interval
 * @param pairs how many pairs it rests on
 * @param logSd standard deviation of one pair's log ratio used for the interval: the larger of the
 *     pairs' own and {@code combinedLogSd}
 * @param degreesOfFreedom the pairs' and the pooled noise's together: the t quantile's
 * @param combinedLogSd the pairs' own spread pooled with the run noise by degrees of freedom: the
 *     estimate of one pair's spread a detectable gain is computed from
 * @param confidence two-sided confidence of the interval (0.95)
 */
public record PairedRatio(
    double estimate,
    double low,
    double high,
    int pairs,
    double logSd,
    int degreesOfFreedom,
    double combinedLogSd,
    double confidence) {

  /** Pairs' own spread only; needs at least 2 pairs. */
  public static PairedRatio of(double[] a, double[] b, double confidence) {
    return of(a, b, confidence, new RunNoise(0, 0, 0, 0));
  }

  /**
   * The ratio B / A from pairs (a[i], b[i]), its spread combined with a pooled run noise ({@link
   * RunNoise#known()} false: the pairs' spread alone).
   *
   * @throws IllegalArgumentException when the arrays differ in length, a value is not positive, or
   *     there are too few pairs for any spread (one pair and no pooled noise)
   */
  public static PairedRatio of(double[] a, double[] b, double confidence, RunNoise pooled) {
    double[] d = logRatios(a, b);
    int n = d.length;
    int ownDf = n - 1;
    int df = ownDf + pooled.degreesOfFreedom();
    if (n < 1 || df < 1) {
      throw new IllegalArgumentException(
          "an interval needs 2 pairs, or 1 pair and a pooled noise, but got "
              + n
              + " pairs and "
              + pooled.degreesOfFreedom()
              + " pooled degrees of freedom");
    }
    double own = Stats.sampleSd(d);
    double pairVariance = 2 * pooled.logSd() * pooled.logSd();
    double combined =
        Math.sqrt((ownDf * own * own + pooled.degreesOfFreedom() * pairVariance) / (double) df);
    return interval(d, Math.max(own, combined), df, combined, confidence);
  }

  /**
   * The ratio B / A from pairs (a[i], b[i]) whose spread is already part of {@code pool}: a noise
   * estimated from a set of pairs these belong to ({@link PairNoise}: every validation pair of the
   * session). The interval uses the larger of the pairs' own spread and the pool's, with the pool's
   * degrees of freedom alone.
   *
   * <p>Why not {@link #of(double[], double[], double, RunNoise)}: it adds the pairs' own degrees of
   * freedom to the pool's, which is right for a noise measured on other runs and counts these pairs
   * twice when the pool holds them. With one candidate (a {@code pgknob compare} of one
   * configuration) the pool is exactly its pairs: 5 pairs were read with the t quantile of 8
   * degrees of freedom instead of 4, and equal configurations were called different in 8% of
   * comparisons instead of 5%.
   *
   * @throws IllegalArgumentException when the arrays differ in length, a value is not positive, or
   *     the pool has no degrees of freedom
   */
  public static PairedRatio ofPairsInPool(
      double[] a, double[] b, double confidence, RunNoise pool) {
    double[] d = logRatios(a, b);
    int n = d.length;
    int df = Math.max(pool.degreesOfFreedom(), n - 1);
    if (n < 1 || df < 1) {
      throw new IllegalArgumentException(
          "an interval needs a pool of pairs with degrees of freedom, but got "
              + n
              + " pairs and "
              + pool.degreesOfFreedom()
              + " pooled degrees of freedom");
    }
    double own = n > 1 ? Stats.sampleSd(d) : 0;
    double pooled = Math.sqrt(2) * pool.logSd();
    return interval(d, Math.max(own, pooled), df, pooled, confidence);
  }

  /** The t interval on the mean of the log ratios {@code d} with spread {@code sd}. */
  private static PairedRatio interval(
      double[] d, double sd, int df, double combined, double confidence) {
    double mean = Stats.mean(d);
    double half = Stats.t(0.5 + confidence / 2, df) * sd / Math.sqrt(d.length);
    return new PairedRatio(
        Math.exp(mean),
        Math.exp(mean - half),
        Math.exp(mean + half),
        d.length,
        sd,
        df,
        combined,
        confidence);
  }

  /** ln(b[i] / a[i]) for each pair. */
  static double[] logRatios(double[] a, double[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException(
          "pairs need one A and one B value each, but got "
              + a.length
              + " A and "
              + b.length
              + " B values");
    }
    double[] la = Stats.logs(a);
    double[] lb = Stats.logs(b);
    double[] d = new double[a.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = lb[i] - la[i];
    }
    return d;
  }

  /** True when the interval lies entirely above or below 1: a difference, not noise. */
  public boolean excludesOne() {
    return low > 1 || high < 1;
  }

  /** Half the interval's width in log scale: about the ± fraction (0.03 is ±3%). */
  public double halfWidth() {
    return (Math.log(high) - Math.log(low)) / 2;
  }
}
