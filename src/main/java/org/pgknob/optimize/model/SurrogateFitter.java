package org.pgknob.optimize.model;

/**
 * Fits a surrogate to points of the unit cube and their (standardized) values. May keep state
 * between fits (a warm start), so it belongs to one optimizer.
 */
public interface SurrogateFitter {
  Surrogate fit(double[][] x, double[] y, long seed);

  /** {@code gp} or {@code rf}. */
  String name();
}
