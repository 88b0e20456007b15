package org.pgknob.measure;

/**
 * How often to measure the reference configuration again: often while its level moves, rarely while
 * it holds still.
 *
 * <p>The aim is that the level changes by no more than half the run-to-run noise between two
 * reference runs, so linear interpolation misses less than the noise itself. With no drift seen (or
 * no noise known yet) the longest interval applies; the shortest bounds the cost of a fast drift,
 * where references every few trials are all a session can do.
 */
public record ReferenceSchedule(int shortestInterval, int longestInterval) {
  public ReferenceSchedule {
    if (shortestInterval < 1 || longestInterval < shortestInterval) {
      throw new IllegalArgumentException(
          "need 1 <= shortest <= longest interval, but got "
              + shortestInterval
              + " and "
              + longestInterval);
    }
  }

  /**
   * Trials until the next reference run, given the drift per trial seen so far (log scale, {@link
   * DriftModel#driftPerTime(RunNoise, double)} with trial numbers as time) and the run noise.
   */
  public int interval(double driftPerTrial, RunNoise noise) {
    if (!(driftPerTrial > 0) || !noise.known() || noise.logSd() == 0) {
      return longestInterval;
    }
    double trials = 0.5 * noise.logSd() / driftPerTrial;
    return (int) Math.max(shortestInterval, Math.min(longestInterval, Math.floor(trials)));
  }
}
