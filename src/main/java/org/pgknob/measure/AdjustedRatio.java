package org.pgknob.measure;

import java.util.Locale;

/**
 * A paired ratio B / A adjusted for a per-run covariate the configuration cannot change (other
 * processes' CPU during each window): each pair's log ratio minus the session's pooled slope times
 * the pair's covariate difference, so a pair in which B ran while a build took a core no longer
 * counts as B being slower.
 *
 * <p>The interval accounts for the slope's own estimation error (its variance times the squared
 * mean covariate difference is added to the mean's) and uses the residual noise left after the
 * slope, whose degrees of freedom lose one to it. Its {@link PairedRatio#logSd()} is the effective
 * spread of one pair (the slope's error included), so the detectable effect computed from it is the
 * one of the interval actually used.
 *
 * <p>The adjustment is refused, and the plain ratio used, when there is no slope (too few repeated
 * runs, no covariate logged: a session recorded before pgknob logged it) or when the covariate
 * itself differs between the two configurations beyond its run-to-run spread: then the
 * configuration moves the covariate (a setting whose writeback is counted as other processes' CPU),
 * and adjusting would remove part of the very effect being measured (CUPED's rule: only covariates
 * the treatment cannot change).
 *
 * @param used the ratio to report and decide on: the adjusted one when applied, else the plain one
 * @param plain the unadjusted ratio ({@link PairedRatio#of(double[], double[], double, RunNoise)})
 * @param slope the pooled slope the adjustment used or would have used
 * @param refusal why the adjustment was not applied, empty when it was
 */
public record AdjustedRatio(
    PairedRatio used, PairedRatio plain, CovariateSlope slope, String refusal) {

  /** Two-sided error rate of the test that the covariate differs between the configurations. */
  public static final double COVARIATE_SHIFT_ERROR_RATE = 0.05;

  /**
   * The ratio B / A from pairs (a[i], b[i]) with covariates (xa[i], xb[i]), adjusted by {@code
   * slope} unless refused (see the class comment); {@code pooled} is the unadjusted run noise the
   * plain ratio uses.
   */
  public static AdjustedRatio of(
      double[] a,
      double[] b,
      double[] xa,
      double[] xb,
      double confidence,
      RunNoise pooled,
      CovariateSlope slope) {
    PairedRatio plain = PairedRatio.of(a, b, confidence, pooled);
    if (xa.length != a.length || xb.length != b.length) {
      throw new IllegalArgumentException(
          "each run needs its covariate, but got "
              + a.length
              + " A runs with "
              + xa.length
              + " covariates and "
              + b.length
              + " B runs with "
              + xb.length);
    }
    if (!slope.known()) {
      return new AdjustedRatio(plain, plain, slope, "too few repeated runs with the covariate");
    }
    int n = a.length;
    double[] dx = new double[n];
    for (int i = 0; i < n; i++) {
      dx[i] = xb[i] - xa[i];
    }
    double meanDx = Stats.mean(dx);
    // Under "the configuration does not move the covariate" each difference has twice one run's
    // covariate variance, known from the whole session's repeated runs.
    double shiftZ = meanDx / (Math.sqrt(2) * slope.covariateSd() / Math.sqrt(n));
    int covariateDf = slope.residual().degreesOfFreedom() + 1;
    if (Math.abs(shiftZ) > Stats.t(1 - COVARIATE_SHIFT_ERROR_RATE / 2, covariateDf)) {
      return new AdjustedRatio(
          plain,
          plain,
          slope,
          String.format(
              Locale.ROOT,
              "the covariate differs between the configurations by %.2f on average (%.1f times"
                  + " its run-to-run spread allows)",
              meanDx,
              Math.abs(shiftZ) / Stats.t(1 - COVARIATE_SHIFT_ERROR_RATE / 2, covariateDf)));
    }
    double[] d = PairedRatio.logRatios(a, b);
    for (int i = 0; i < n; i++) {
      d[i] -= slope.slope() * dx[i];
    }
    RunNoise residual = slope.residual();
    int ownDf = n - 1;
    int df = ownDf + residual.degreesOfFreedom();
    double own = Stats.sampleSd(d);
    double pairVariance = 2 * residual.logSd() * residual.logSd();
    // the combined spread alone, not widened to the pairs' own as PairedRatio's is: this ratio
    // serves
    // the covariate benchmark, and its power is DetectableEffect#smallestGainForCombinedSpread's
    double pairSd2 = (ownDf * own * own + residual.degreesOfFreedom() * pairVariance) / df;
    double meanVariance = pairSd2 / n + meanDx * meanDx * slope.slopeSe() * slope.slopeSe();
    double mean = Stats.mean(d);
    double half = Stats.t(0.5 + confidence / 2, df) * Math.sqrt(meanVariance);
    PairedRatio adjusted =
        new PairedRatio(
            Math.exp(mean),
            Math.exp(mean - half),
            Math.exp(mean + half),
            n,
            Math.sqrt(meanVariance * n),
            df,
            Math.sqrt(meanVariance * n),
            confidence);
    return new AdjustedRatio(adjusted, plain, slope, "");
  }

  /** True when the adjustment was applied. */
  public boolean applied() {
    return refusal.isEmpty();
  }

  /** How much narrower the adjusted interval is than the plain one (0.4: 40% narrower). */
  public double narrowing() {
    return 1 - used.halfWidth() / plain.halfWidth();
  }
}
