package org.pgknob.optimize.model;

/**
 * Fits a surrogate to points of the unit cube and their (standardized) values. May keep state
 * between fits (a warm start), so it belongs to one optimizer.
 */
public interface SurrogateFitter {
  Surrogate fit(double[][] x, double[] y, long seed);

  /**
   * As {@link #fit(double[][], double[], long)}, with each observation's known noise variance on
   * the scale of {@code y} (0 where unknown: the fitted common noise stands for it). Surrogates
   * without a noise model ignore it.
   */
  default Surrogate fit(double[][] x, double[] y, double[] knownNoise, long seed) {
    return fit(x, y, seed);
  }

  /** {@code gp} or {@code rf}. */
  String name();
}
