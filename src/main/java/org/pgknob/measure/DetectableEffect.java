package org.pgknob.measure;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * The smallest gain a paired comparison can tell from noise: the true ratio that a two-sided test
 * at {@code errorRate} finds with probability {@code power}, given the run noise and the number of
 * pairs (on log ratios: each pair's log ratio has twice one run's variance).
 *
 * <p>It is computed for the rule the interval uses. {@link PairedRatio} takes the larger of the
 * pairs' own spread and their spread pooled with the session's noise, and that larger spread is
 * wider on average than the pooled one the usual formula {@code (t(1 - errorRate / 2) + t(power)) x
 * sd / sqrt(n)} assumes: with it, a gain of the formula's size was found in 75% of simulated
 * comparisons, not 80%. So {@link #smallestGain} takes its multiplier from a simulation of that
 * rule (normal runs, a fixed seed, {@value #DRAWS} draws, so every session and resume states the
 * same figure): the power of the rule depends on the noise only through the gain over the noise,
 * and the multiplier that gives {@code power} is the {@code power} quantile of the draws'
 * thresholds.
 *
 * @param errorRate two-sided false-claim rate of the comparison (0.05)
 * @param power chance to find a gain of the returned size (0.8)
 */
public record DetectableEffect(double errorRate, double power) {
  public static final DetectableEffect DEFAULT = new DetectableEffect(0.05, 0.8);

  /** Simulated comparisons behind one multiplier: the power it states is within about 0.4%. */
  static final int DRAWS = 10_000;

  private static final long SEED = 16;

  /**
   * Multipliers by (errorRate, power, pairs, pooled degrees of freedom): each is simulated once.
   */
  private static final Map<List<Number>, Double> MULTIPLIERS = new ConcurrentHashMap<>();

  public DetectableEffect {
    if (!(errorRate > 0 && errorRate < 0.5) || !(power >= 0.5 && power < 1)) {
      throw new IllegalArgumentException(
          "need 0 < errorRate < 0.5 and 0.5 <= power < 1, but got " + errorRate + ", " + power);
    }
  }

  /**
   * The smallest gain as a fraction (0.09 for 9%) that {@link PairedRatio}'s interval (the larger
   * of the pairs' own and the combined spread) finds with this power, with {@code pairs} pairs,
   * when one run's log value varies by {@code runLogSd}; {@code degreesOfFreedom} are the
   * interval's: the pooled noise's plus the pairs' own ({@code pairs - 1}). Infinite below one
   * pair.
   */
  public double smallestGain(double runLogSd, int pairs, int degreesOfFreedom) {
    if (pairs < 1 || degreesOfFreedom < 1) {
      return Double.POSITIVE_INFINITY;
    }
    int pooledDf = Math.max(0, degreesOfFreedom - (pairs - 1));
    double multiplier =
        MULTIPLIERS.computeIfAbsent(
            List.of(errorRate, power, pairs, pooledDf),
            k -> largerSpreadMultiplier(pairs, pooledDf));
    return Math.expm1(multiplier * Math.sqrt(2) * runLogSd / Math.sqrt(pairs));
  }

  /**
   * The same for an interval whose spread is the pairs' own pooled with the noise by degrees of
   * freedom, never widened to the pairs' own ({@link AdjustedRatio}): the usual power calculation.
   */
  public double smallestGainForCombinedSpread(double runLogSd, int pairs, int degreesOfFreedom) {
    if (pairs < 1 || degreesOfFreedom < 1) {
      return Double.POSITIVE_INFINITY;
    }
    double multiplier =
        Stats.t(1 - errorRate / 2, degreesOfFreedom) + Stats.t(power, degreesOfFreedom);
    return Math.expm1(multiplier * Math.sqrt(2) * runLogSd / Math.sqrt(pairs));
  }

  /**
   * In units of one pair's spread: a true mean log ratio of {@code m / sqrt(pairs)} makes the lower
   * end of the interval exceed 0 when {@code m > t x spread - sqrt(pairs) x mean(z)}, z the pairs'
   * standard normal errors and spread the rule's (the larger of their sample sd and that sd pooled
   * with a noise estimate of {@code pooledDf} degrees of freedom). The {@code power} quantile of
   * that threshold over the draws is the m found with probability {@code power}.
   */
  private double largerSpreadMultiplier(int pairs, int pooledDf) {
    RandomGenerator random = new Well19937c(SEED);
    int ownDf = pairs - 1;
    // normal errors: sqrt(n) x their mean is standard normal, and (n - 1) x their sample variance
    // is chi-squared with n - 1 degrees of freedom, independent of it; so one draw costs three
    // numbers whatever the pairs
    // chi-squared(k) is gamma(k / 2, 2), whose sampler is direct (chi-squared's inverts its cdf)
    GammaDistribution ownSquares = ownDf > 0 ? new GammaDistribution(random, ownDf / 2.0, 2) : null;
    GammaDistribution pooledSquares =
        pooledDf > 0 ? new GammaDistribution(random, pooledDf / 2.0, 2) : null;
    int df = ownDf + pooledDf;
    double t = Stats.t(1 - errorRate / 2, df);
    double[] thresholds = new double[DRAWS];
    for (int k = 0; k < DRAWS; k++) {
      double scaledMean = random.nextGaussian();
      double own2 = ownSquares == null ? 0 : ownSquares.sample();
      double pooled2 = pooledSquares == null ? 0 : pooledSquares.sample();
      double own = ownDf > 0 ? Math.sqrt(own2 / ownDf) : 0;
      double combined = Math.sqrt((own2 + pooled2) / df);
      thresholds[k] = t * Math.max(own, combined) - scaledMean;
    }
    Arrays.sort(thresholds);
    return thresholds[(int) Math.ceil(power * DRAWS) - 1];
  }
}
