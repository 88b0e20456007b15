package org.pgknob.optimize.acquisition;

/**
 * TuRBO-1's trust region (Eriksson et al. 2019): a box around the incumbent inside which the
 * acquisition is searched, its sides in proportion to the model's length scales, the base length
 * doubled after {@value #SUCCESSES_TO_EXPAND} successes in a row and halved after {@code
 * failuresToShrink} failures in a row, and reset to {@value #INITIAL_LENGTH} once it falls below
 * {@value #MIN_LENGTH} (TuRBO restarts there; the data are kept here, since each trial of a session
 * costs minutes).
 *
 * <p>Why: with many inert inputs a Gaussian process fitted to a few dozen noisy points keeps wide
 * posterior variances everywhere far from the data, and expected improvement spends trials there; a
 * box that shrinks while the search stops improving makes it refine where it found the best
 * configuration, and expands again when refining pays.
 *
 * <p>The state is replayed from the observed values in order ({@link #replay}), so it is a function
 * of the history alone: deterministic, and the same after a resumed session.
 *
 * @param length the base side of the box, on the unit cube
 * @param successes successes in a row since the last change of length
 * @param failures failures in a row since the last change of length
 * @param restarts times the length collapsed and was reset
 */
public record TrustRegion(double length, int successes, int failures, int restarts) {
  static final double INITIAL_LENGTH = 0.8;
  static final double MIN_LENGTH = 0.5 / 128;
  static final double MAX_LENGTH = 1.6;
  static final int SUCCESSES_TO_EXPAND = 3;

  /**
   * An improvement of the best value by less than this (on the model's standardized scale) is a
   * failure, as TuRBO's 1e-3 of the best value.
   */
  static final double MIN_IMPROVEMENT = 1e-3;

  /**
   * When a search uses a trust region, and how patient it is.
   *
   * @param fromDimensions the fewest unit-cube dimensions the region is used in
   * @param failures failures in a row that halve the region; 0 for TuRBO's {@link
   *     #failuresToShrink(int)}
   */
  public record Policy(int fromDimensions, int failures) {
    /** No trust region: the acquisition is searched over the whole space. */
    public static final Policy NONE = new Policy(Integer.MAX_VALUE, 0);

    /**
     * The fewest unit-cube dimensions a {@link #turbo} region is used in: the hard
     * functions (a few relevant inputs among 15 to 30) start there; in fewer dimensions every input
     * usually matters and the whole-space search already wins.
     */
    public static final int FROM_DIMENSIONS = 12;

    /**
     * TuRBO's region from {@link #FROM_DIMENSIONS} up, halved after {@code failures} (0: TuRBO's).
     */
    public static Policy turbo(int failures) {
      return new Policy(FROM_DIMENSIONS, failures);
    }

    public boolean appliesTo(int dimensions) {
      return dimensions >= fromDimensions;
    }

    /** Failures in a row that halve the region in a space of {@code dimensions}. */
    public int failuresToShrink(int dimensions) {
      return failures > 0 ? failures : TrustRegion.failuresToShrink(dimensions);
    }
  }

  /** The region before any observation of the search. */
  public static TrustRegion initial() {
    return new TrustRegion(INITIAL_LENGTH, 0, 0, 0);
  }

  /**
   * The region after the search's observations: {@code values} in the order observed, higher
   * better; the first {@code designPoints} are the initial design, which sets the best value to
   * beat without moving the region.
   */
  public static TrustRegion replay(double[] values, int designPoints, int failuresToShrink) {
    TrustRegion region = initial();
    double best = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < values.length; i++) {
      boolean improved = values[i] > best + MIN_IMPROVEMENT;
      if (i >= designPoints) {
        region = region.after(improved, failuresToShrink);
      }
      best = Math.max(best, values[i]);
    }
    return region;
  }

  /** The region after one more observation, which improved on the best value or not. */
  TrustRegion after(boolean improved, int failuresToShrink) {
    double next = length;
    int s = improved ? successes + 1 : 0;
    int f = improved ? 0 : failures + 1;
    if (s >= SUCCESSES_TO_EXPAND) {
      next = Math.min(MAX_LENGTH, 2 * length);
      s = 0;
    } else if (f >= failuresToShrink) {
      next = length / 2;
      f = 0;
    }
    if (next < MIN_LENGTH) {
      return new TrustRegion(INITIAL_LENGTH, 0, 0, restarts + 1);
    }
    return new TrustRegion(next, s, f, restarts);
  }

  /**
   * TuRBO's failure tolerance for one suggestion at a time: as many failures in a row as
   * dimensions, at least 4.
   */
  public static int failuresToShrink(int dimensions) {
    return Math.max(4, dimensions);
  }

  /**
   * The box around {@code center}: dimension d's side is the base length times its length scale
   * over the geometric mean of the length scales of the boxed dimensions (so the box's volume is
   * that of a cube of the base length), cut to the unit cube. Dimensions with a length scale of 0
   * or less are not boxed (the whole of [0, 1]): a categorical knob's one-hot coordinates.
   */
  public Box box(double[] center, double[] lengthScales) {
    double logSum = 0;
    int boxed = 0;
    for (double l : lengthScales) {
      if (l > 0) {
        logSum += Math.log(l);
        boxed++;
      }
    }
    double mean = boxed == 0 ? 1 : Math.exp(logSum / boxed);
    double[] lower = new double[center.length];
    double[] upper = new double[center.length];
    for (int d = 0; d < center.length; d++) {
      if (lengthScales[d] > 0) {
        double half = length * lengthScales[d] / mean / 2;
        lower[d] = Math.max(0, center[d] - half);
        upper[d] = Math.min(1, center[d] + half);
      } else {
        upper[d] = 1;
      }
    }
    return new Box(center.clone(), lower, upper);
  }

  /**
   * A box of the unit cube and the point it is built around.
   *
   * @param center the incumbent
   * @param lower each dimension's lower bound
   * @param upper each dimension's upper bound
   */
  public record Box(double[] center, double[] lower, double[] upper) {
    /** {@code x} moved to the nearest point of the box. */
    public double[] clamp(double[] x) {
      double[] out = x.clone();
      for (int d = 0; d < out.length; d++) {
        out[d] = Math.max(lower[d], Math.min(upper[d], out[d]));
      }
      return out;
    }

    /** Whether {@code x} lies in the box, up to {@code tolerance} per dimension. */
    public boolean contains(double[] x, double tolerance) {
      for (int d = 0; d < x.length; d++) {
        if (x[d] < lower[d] - tolerance || x[d] > upper[d] + tolerance) {
          return false;
        }
      }
      return true;
    }
  }
}
