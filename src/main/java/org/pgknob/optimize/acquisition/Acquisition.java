package org.pgknob.optimize.acquisition;

/**
 * An acquisition function over canonical unit-cube points, with an optional cheaper upper bound
 * that lets {@link AcquisitionMaximizer} skip the exact value of candidates that cannot be among
 * the best. Both must be safe to call from several threads.
 */
@FunctionalInterface
public interface Acquisition {
  /** The value at {@code point}; higher is better; NaN where undefined. */
  double value(double[] point);

  /**
   * A value at least {@link #value} at {@code point}, cheaper to compute; positive infinity (the
   * default) when no bound is known, so that every candidate is scored exactly.
   */
  default double upperBound(double[] point) {
    return Double.POSITIVE_INFINITY;
  }
}
