package org.pgknob.measure;

/**
 * Run-to-run noise: how much one window of an unchanged configuration varies from run to run, as
 * the standard deviation of the log of its value (about the coefficient of variation for small
 * noise), with what it rests on.
 *
 * @param logSd standard deviation of ln(value) between runs of one configuration
 * @param degreesOfFreedom runs minus configurations: the pooled estimate's degrees of freedom
 * @param runs how many runs it was pooled from
 * @param configurations how many repeated configurations those runs belong to
 */
public record RunNoise(double logSd, int degreesOfFreedom, int runs, int configurations) {
  public RunNoise {
    if (!(logSd >= 0) || !Double.isFinite(logSd) || degreesOfFreedom < 0) {
      throw new IllegalArgumentException(
          "noise needs logSd >= 0 and degrees of freedom >= 0, but got logSd="
              + logSd
              + ", df="
              + degreesOfFreedom);
    }
  }

  /** The coefficient of variation of the values a log-normal noise of this size gives. */
  public double cv() {
    return Math.sqrt(Math.expm1(logSd * logSd));
  }

  /** True when at least one configuration was repeated, so the estimate exists. */
  public boolean known() {
    return degreesOfFreedom > 0;
  }
}
