package org.pgknob.measure;

/**
 * When a race between a challenger and the incumbent is decided, after each pair of runs in
 * adjacent slots (SMAC's intensification with an error rate).
 *
 * <p>After n pairs, with d the log ratios challenger / incumbent (turned so that positive is
 * better):
 *
 * <ul>
 *   <li>the mean of d is not above 0: the incumbent stays (SMAC drops a challenger as soon as it is
 *       behind on the runs both have; a challenger behind has shown nothing);
 *   <li>the one-sided lower confidence bound of the mean of d is above 0, and the challenger is
 *       still ahead on average with the pair most in its favour left out: the challenger wins. The
 *       second condition keeps one incumbent run hit by a 30% drop (an outlier no normal model
 *       expects) from deciding a race on its own;
 *   <li>n reached the cap: the incumbent stays (undecided races keep what is known to be good);
 *   <li>else: one more pair.
 * </ul>
 *
 * The lower bound uses {@code errorRate / maxPairs} at each look (Bonferroni over the looks), so a
 * challenger no better than the incumbent wins a race with probability at most {@code errorRate},
 * however many pairs the race takes. The spread is the larger of the race's pairs' own and their
 * spread combined with the session's pooled run noise, as {@link PairedRatio} takes it: the pooled
 * noise leaves out one outlying run ({@link PooledNoise}), and a race one drop hits must not be
 * judged by it alone.
 *
 * @param errorRate the chance an equal challenger may be declared better (0.05)
 * @param maxPairs the cap on pairs per race
 */
public record RaceRule(double errorRate, int maxPairs) {
  /** No race is decided on fewer pairs: one pair is behind, or far ahead, by chance too often. */
  public static final int MIN_PAIRS = 2;

  /** What a race says after its latest pair. */
  public enum Decision {
    CHALLENGER_WINS,
    INCUMBENT_STAYS,
    CONTINUE
  }

  public RaceRule {
    if (!(errorRate > 0 && errorRate < 0.5) || maxPairs < 1) {
      throw new IllegalArgumentException(
          "a race needs 0 < errorRate < 0.5 and maxPairs >= 1, but got "
              + errorRate
              + " and "
              + maxPairs);
    }
  }

  /**
   * The decision after the pairs so far.
   *
   * @param incumbent the incumbent's value in each pair
   * @param challenger the challenger's value in each pair
   * @param higherIsBetter true for throughput, false for latency
   * @param pooled the session's run noise ({@link RunNoise#known()} false: the pairs' own spread)
   */
  public Decision decide(
      double[] incumbent, double[] challenger, boolean higherIsBetter, RunNoise pooled) {
    double[] d = PairedRatio.logRatios(incumbent, challenger);
    int n = d.length;
    if (n == 0) {
      return Decision.CONTINUE;
    }
    if (!higherIsBetter) {
      for (int i = 0; i < n; i++) {
        d[i] = -d[i];
      }
    }
    if (n < MIN_PAIRS) {
      return n >= maxPairs ? Decision.INCUMBENT_STAYS : Decision.CONTINUE;
    }
    if (Stats.mean(d) <= 0) {
      return Decision.INCUMBENT_STAYS;
    }
    if (lowerBound(d, pooled) > 0 && Stats.mean(withoutLargest(d)) > 0) {
      return Decision.CHALLENGER_WINS;
    }
    return n >= maxPairs ? Decision.INCUMBENT_STAYS : Decision.CONTINUE;
  }

  /** The one-sided lower bound of the mean log ratio at this rule's per-look error rate. */
  private double lowerBound(double[] d, RunNoise pooled) {
    int n = d.length;
    int ownDf = n - 1;
    int df = ownDf + pooled.degreesOfFreedom();
    if (n == 0 || df < 1) {
      return Double.NEGATIVE_INFINITY;
    }
    double own = Stats.sampleSd(d);
    double pairVariance = 2 * pooled.logSd() * pooled.logSd();
    double combined =
        Math.sqrt((ownDf * own * own + pooled.degreesOfFreedom() * pairVariance) / df);
    // the larger of the two, as PairedRatio: a run the pooled noise calls typical can be a drop
    double sd = Math.max(own, combined);
    return Stats.mean(d) - Stats.t(1 - errorRate / maxPairs, df) * sd / Math.sqrt(n);
  }

  private static double[] withoutLargest(double[] d) {
    int largest = 0;
    for (int i = 1; i < d.length; i++) {
      largest = d[i] > d[largest] ? i : largest;
    }
    double[] out = new double[d.length - 1];
    for (int i = 0, j = 0; i < d.length; i++) {
      if (i != largest) {
        out[j++] = d[i];
      }
    }
    return out;
  }
}
