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
    // A run varies at least by its window's own error: a pooled noise below it is the luck of a
    // few runs (two quiet baselines 0.03% apart, windows 4.7% each, read "gains under 0% cannot be
    // told from noise"), so the windows' error stands in for it.
    double within = windowRelativeSe;
    double total = Math.max(pooled.logSd(), within);
    return new NoiseComponents(Math.sqrt(total * total - within * within), within, windowSeconds);
  }

  /** The run-to-run noise a window of {@code seconds} would show. */
  public double atWindow(double seconds) {
    double within = withinLogSd * withinLogSd * windowSeconds / seconds;
    return Math.sqrt(betweenLogSd * betweenLogSd + within);
  }
}
