package org.pgknob.optimize.model;

import java.util.List;

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

  /**
   * As {@link #fit(double[][], double[], double[], long)}, told which unit-cube dimensions one-hot
   * encode each categorical knob; surrogates that compare categories their own way use it, the
   * others ignore it.
   */
  default Surrogate fit(
      double[][] x,
      double[] y,
      double[] knownNoise,
      List<CategoricalBlock> categorical,
      long seed) {
    return fit(x, y, knownNoise, seed);
  }

  /** {@code gp} or {@code rf}. */
  String name();
}
