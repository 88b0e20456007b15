package org.pgknob.measure;

/**
 * The smallest gain a paired comparison can tell from noise: the true ratio that a two-sided test
 * at {@code errorRate} finds with probability {@code power}, given the run noise and the number of
 * pairs (the usual power calculation, on log ratios: each pair's log ratio has twice one run's
 * variance).
 *
 * @param errorRate two-sided false-claim rate of the comparison (0.05)
 * @param power chance to find a gain of the returned size (0.8)
 */
public record DetectableEffect(double errorRate, double power) {
  public static final DetectableEffect DEFAULT = new DetectableEffect(0.05, 0.8);

  public DetectableEffect {
    if (!(errorRate > 0 && errorRate < 0.5) || !(power >= 0.5 && power < 1)) {
      throw new IllegalArgumentException(
          "need 0 < errorRate < 0.5 and 0.5 <= power < 1, but got " + errorRate + ", " + power);
    }
  }

  /**
   * The smallest detectable gain as a fraction (0.09 for 9%) with {@code pairs} pairs, when one
   * run's log value varies by {@code runLogSd}; the spread is known with {@code degreesOfFreedom}
   * (pooled noise plus the pairs' own). Infinite below one pair.
   */
  public double smallestGain(double runLogSd, int pairs, int degreesOfFreedom) {
    if (pairs < 1 || degreesOfFreedom < 1) {
      return Double.POSITIVE_INFINITY;
    }
    double multiplier =
        Stats.t(1 - errorRate / 2, degreesOfFreedom) + Stats.t(power, degreesOfFreedom);
    return Math.expm1(multiplier * Math.sqrt(2) * runLogSd / Math.sqrt(pairs));
  }
}
