package org.pgknob.measure;

import org.apache.commons.math3.distribution.FDistribution;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * Whether one configuration's runs disagree more than the session's run noise allows, and the value
 * to rank such a configuration by.
 *
 * <p>Why: some configurations are fast on average but erratic (a checkpoint storm in one window out
 * of three; TUNA found tuned configurations that lost 30% and more when deployed). Their mean hides
 * what a user will meet. A configuration whose log-value variance exceeds the pooled noise variance
 * beyond the F distribution's 1 - {@code errorRate} quantile is unstable, and is ranked by its
 * worst run instead of its mean.
 */
public record Instability(double errorRate) {
  public Instability {
    if (!(errorRate > 0 && errorRate < 0.5)) {
      throw new IllegalArgumentException("need 0 < errorRate < 0.5, but got " + errorRate);
    }
  }

  /** True when these runs (2 or more, positive) vary significantly more than {@code pooled}. */
  public boolean unstable(double[] runs, RunNoise pooled) {
    if (runs.length < 2 || !pooled.known()) {
      return false;
    }
    double sd = Stats.sampleSd(Stats.logs(runs));
    if (pooled.logSd() == 0) {
      return sd > 0;
    }
    double f = (sd * sd) / (pooled.logSd() * pooled.logSd());
    double critical =
        new FDistribution((RandomGenerator) null, runs.length - 1, pooled.degreesOfFreedom())
            .inverseCumulativeProbability(1 - errorRate);
    return f > critical;
  }

  /**
   * The value to rank by: the geometric mean of the runs, or for an unstable configuration its
   * worst run (the lowest when higher is better, else the highest).
   */
  public double rankingValue(double[] runs, boolean higherIsBetter, RunNoise pooled) {
    if (unstable(runs, pooled)) {
      double worst = runs[0];
      for (double v : runs) {
        worst = higherIsBetter ? Math.min(worst, v) : Math.max(worst, v);
      }
      return worst;
    }
    return Math.exp(Stats.mean(Stats.logs(runs)));
  }
}
