package org.pgknob.measure;

/**
 * The mean of one measured window and how far it may be from the configuration's true level on the
 * time scale of the window, from its per-second timeline.
 *
 * @param mean mean of the per-second values
 * @param standardError standard error of that mean by batch means (in the values' units)
 * @param batches how many batch means it rests on (degrees of freedom + 1)
 * @param batchSeconds seconds per batch
 */
public record WindowError(double mean, double standardError, int batches, int batchSeconds) {
  /** Standard error over the mean: the window's relative precision. */
  public double relativeError() {
    return mean == 0 ? 0 : standardError / Math.abs(mean);
  }
}
