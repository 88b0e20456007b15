package org.pgknob.optimize;

import java.util.List;

/**
 * The trust region's base side length, replayed from the values observed in order (TuRBO's rule):
 * it starts at {@link #INITIAL}, doubles (up to {@link #MAX}) after {@link #SUCCESSES} improvements
 * of the best value in a row and halves after {@code failures} non-improvements in a row; below
 * {@link #MIN} it starts again at {@link #INITIAL}, the region having collapsed on a local optimum.
 * Replaying keeps a freshly built optimizer (as the session builds one per trial) in the same state
 * as one that saw every trial.
 */
final class TrustRegionLength {
  static final double INITIAL = 0.8;
  static final double MAX = 1.6;
  static final double MIN = 0.5 * 0.5 * 0.5 * 0.5 * 0.5 * 0.5 * 0.5;
  static final int SUCCESSES = 3;

  private TrustRegionLength() {}

  /**
   * @param values the observed values, larger better, in the order observed
   * @param designPoints how many of the first values are the initial design (no region yet)
   * @param failures non-improvements in a row that halve the region; TuRBO uses the dimension
   */
  static double replay(List<Double> values, int designPoints, int failures) {
    double length = INITIAL;
    double best = Double.NEGATIVE_INFINITY;
    int wins = 0;
    int losses = 0;
    for (int i = 0; i < values.size(); i++) {
      double v = values.get(i);
      // an improvement must beat the best by a sliver of its size, as TuRBO's 1e-3
      boolean improved = v > best + 1e-3 * Math.abs(best);
      if (improved) {
        best = v;
      }
      if (i < designPoints) {
        continue;
      }
      if (improved) {
        wins++;
        losses = 0;
      } else {
        losses++;
        wins = 0;
      }
      if (wins == SUCCESSES) {
        length = Math.min(MAX, 2 * length);
        wins = 0;
      } else if (losses == failures) {
        length /= 2;
        losses = 0;
      }
      if (length < MIN) {
        length = INITIAL;
      }
    }
    return length;
  }
}
