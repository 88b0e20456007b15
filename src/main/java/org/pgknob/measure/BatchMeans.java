package org.pgknob.measure;

/**
 * Standard error of a window's mean from its per-second values by non-overlapping batch means.
 *
 * <p>Why batches: consecutive seconds of a database workload are correlated (a checkpoint, a vacuum
 * or a slow disk slows several seconds in a row), so the naive {@code sd / sqrt(n)} of the seconds
 * claims a precision the window does not have. Means of batches of b seconds are nearly independent
 * once b exceeds the correlation time; their spread gives an honest standard error. The batch
 * length grows as the square root of the window (the usual choice that keeps both the batch count
 * and the batch length growing), with at least {@link #MIN_BATCHES} batches.
 */
public final class BatchMeans {
  /** Fewer batches than this give no usable spread. */
  public static final int MIN_BATCHES = 3;

  private BatchMeans() {}

  /**
   * The window's mean and its batch-means standard error.
   *
   * @param perSecond the window's per-second values, in time order
   * @throws IllegalArgumentException when fewer than {@link #MIN_BATCHES} seconds are given
   */
  public static WindowError of(double[] perSecond) {
    int n = perSecond.length;
    if (n < MIN_BATCHES) {
      throw new IllegalArgumentException(
          "batch means need at least " + MIN_BATCHES + " seconds, but got " + n);
    }
    int batchSeconds = Math.max(1, Math.min((int) Math.floor(Math.sqrt(n)), n / MIN_BATCHES));
    return of(perSecond, batchSeconds);
  }

  /**
   * As {@link #of(double[])} with a given batch length. Seconds left over after the last whole
   * batch are dropped from the batches (not from the mean), from the start of the window, where a
   * run is least settled.
   */
  public static WindowError of(double[] perSecond, int batchSeconds) {
    int n = perSecond.length;
    int batches = n / batchSeconds;
    if (batchSeconds < 1 || batches < 2) {
      throw new IllegalArgumentException(
          "need at least 2 batches of at least 1 second, but got "
              + n
              + " seconds in batches of "
              + batchSeconds);
    }
    double mean = Stats.mean(perSecond);
    int skip = n - batches * batchSeconds;
    double[] means = new double[batches];
    for (int k = 0; k < batches; k++) {
      double sum = 0;
      for (int i = 0; i < batchSeconds; i++) {
        sum += perSecond[skip + k * batchSeconds + i];
      }
      means[k] = sum / batchSeconds;
    }
    double se = Stats.sampleSd(means) / Math.sqrt(batches);
    return new WindowError(mean, se, batches, batchSeconds);
  }
}
