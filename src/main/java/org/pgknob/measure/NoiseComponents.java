package org.pgknob.measure;

/**
 * Run-to-run noise split into what a longer window averages away and what it does not.
 *
 * <p>The within-window part is the window's own standard error (batch means) relative to its mean;
 * it shrinks with the square root of the window's length. The rest of the run-to-run variance (a
 * different plan cache, a checkpoint's phase, the host's state) stays whatever the window. Together
 * they say what a longer window buys.
 *
 * @param betweenLogSd the part a longer window does not reduce (log scale)
 * @param withinLogSd the window's own relative standard error at {@code windowSeconds}
 * @param windowSeconds the window length both were measured with
 */
public record NoiseComponents(double betweenLogSd, double withinLogSd, double windowSeconds) {
  /**
   * Splits the pooled run noise, measured with windows of {@code windowSeconds}, given the typical
   * relative standard error of those windows (the root mean square over the runs).
   */
  public static NoiseComponents split(
      RunNoise pooled, double windowRelativeSe, double windowSeconds) {
    double total = pooled.logSd();
    double within = Math.min(total, windowRelativeSe);
    return new NoiseComponents(
        Math.sqrt(Math.max(0, total * total - within * within)), within, windowSeconds);
  }

  /** The run-to-run noise a window of {@code seconds} would show. */
  public double atWindow(double seconds) {
    double within = withinLogSd * withinLogSd * windowSeconds / seconds;
    return Math.sqrt(betweenLogSd * betweenLogSd + within);
  }
}
