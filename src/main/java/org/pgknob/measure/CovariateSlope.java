package org.pgknob.measure;

import java.util.Collection;

/**
 * How a run's log value follows a per-run covariate that the configuration cannot change (other
 * processes' CPU during the window), as one slope pooled within every configuration the session ran
 * more than once: regression adjustment, or CUPED (Deng et al., WSDM 2013), estimated across the
 * session.
 *
 * <p>Why within configurations: the runs of one configuration differ only by the machine's state
 * and chance, so the slope they share is the machine's, not a configuration's effect. Each repeated
 * configuration contributes its deviations from its own means (of the log value and of the
 * covariate), as {@link PooledNoise} does for the noise; the slope costs one more degree of
 * freedom. The residual noise is what the runs vary by once the covariate is accounted for.
 *
 * @param slope change of the log value per unit of the covariate
 * @param slopeSe standard error of the slope
 * @param residual run noise left after the adjustment, with its degrees of freedom (runs minus
 *     configurations minus one)
 * @param varianceExplained share of the within-configuration variance of the log values the slope
 *     explains in these runs (0 to 1)
 * @param covariateSd how much the covariate itself varies between runs of one configuration
 *     (standard deviation pooled within configurations, runs minus configurations degrees of
 *     freedom): the yardstick for a covariate that differs between two configurations
 */
public record CovariateSlope(
    double slope, double slopeSe, RunNoise residual, double varianceExplained, double covariateSd) {

  /** No slope: too few runs, or a covariate that never varied within a configuration. */
  public static final CovariateSlope NONE =
      new CovariateSlope(0, Double.POSITIVE_INFINITY, new RunNoise(0, 0, 0, 0), 0, 0);

  /**
   * The pooled slope of groups of repeated runs; each group is one configuration's runs as {value,
   * covariate} pairs (values positive). Groups of one run carry no information and are left out.
   * {@link #NONE} when fewer than 2 degrees of freedom would be left or the covariate did not vary.
   */
  public static CovariateSlope of(Collection<double[][]> groups) {
    double sxx = 0;
    double sxy = 0;
    double syy = 0;
    int df = 0;
    int runs = 0;
    int repeated = 0;
    for (double[][] g : groups) {
      if (g.length < 2) {
        continue;
      }
      double[] y = new double[g.length];
      double[] x = new double[g.length];
      for (int i = 0; i < g.length; i++) {
        y[i] = Math.log(positive(g[i][0]));
        x[i] = g[i][1];
      }
      double my = Stats.mean(y);
      double mx = Stats.mean(x);
      for (int i = 0; i < g.length; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
        syy += (y[i] - my) * (y[i] - my);
      }
      df += g.length - 1;
      runs += g.length;
      repeated++;
    }
    int residualDf = df - 1;
    // Below 1e-12 the covariate is constant up to rounding: its slope would be noise divided by 0.
    if (residualDf < 2 || !(sxx > 1e-12)) {
      return NONE;
    }
    double slope = sxy / sxx;
    double residualSquares = Math.max(0, syy - slope * sxy);
    double residualSd = Math.sqrt(residualSquares / residualDf);
    return new CovariateSlope(
        slope,
        residualSd / Math.sqrt(sxx),
        new RunNoise(residualSd, residualDf, runs, repeated),
        syy > 0 ? 1 - residualSquares / syy : 0,
        Math.sqrt(sxx / df));
  }

  /** True when a slope was estimated. */
  public boolean known() {
    return residual.known();
  }

  private static double positive(double v) {
    if (!(v > 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException("values must be positive and finite, but got " + v);
    }
    return v;
  }
}
