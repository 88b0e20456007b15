package org.pgknob.optimize.model;

/**
 * The prior on a Gaussian process's log noise variance {@code p} (targets standardized, so the
 * variance is relative to theirs), as a negative log density up to a constant, with its gradient.
 */
public enum NoisePrior {
  /**
   * LogNormal(-4, 1) evaluated as a density of the variance itself (BoTorch's default; mode at
   * e^-5): the noise is small unless the data say otherwise.
   */
  USUAL {
    @Override
    double penalty(double p, double[] gradient, int index) {
      double z = p + 4;
      gradient[index] += z + 1;
      return z * z / 2 + p;
    }
  },

  /**
   * Normal(-4, 2) on the log variance: twice as wide and with its mode at e^-4, the textbook
   * Gaussian process's (bench/textbook-gp-ei.py), which lets a fit call more of what it cannot
   * explain noise.
   */
  WEAK {
    @Override
    double penalty(double p, double[] gradient, int index) {
      double z = (p + 4) / 2;
      gradient[index] += z / 2;
      return z * z / 2;
    }
  };

  /** The negative log density at {@code p}; its derivative is added to {@code gradient[index]}. */
  abstract double penalty(double p, double[] gradient, int index);
}
