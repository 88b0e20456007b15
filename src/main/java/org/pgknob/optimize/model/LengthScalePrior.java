package org.pgknob.optimize.model;

/**
 * The prior on a Gaussian process's length scales, as a negative log density of the log length
 * scales {@code p[0..dims)} with its gradient.
 */
public sealed interface LengthScalePrior {
  /**
   * The prior's negative log density (up to a constant); its gradient is added to {@code gradient}.
   */
  double penalty(double[] p, double[] gradient, int dims);

  /** A typical log length scale, where fits start. */
  double typicalLog();

  /** A random log length scale for a fit's random start. */
  double sampleLog(java.util.Random random);

  /**
   * LogNormal(sqrt2 + ln(d) / 2, 3), the dimension-scaled prior of Hvarfner et al. 2024 ("Vanilla
   * Bayesian optimization performs great in high dimensions"), evaluated as a density of the length
   * scale itself (as GPyTorch does): in log coordinates that moves the mode to mean - variance.
   */
  record DimensionScaled(double mean, double sd) implements LengthScalePrior {
    public static DimensionScaled forDimensions(int dims) {
      return new DimensionScaled(Math.sqrt(2) + 0.5 * Math.log(dims), Math.sqrt(3));
    }

    /**
     * A weak prior that ignores the dimension: mode at a length scale of 0.5 (half the unit cube's
     * side) and sd 1 in log space, the textbook Gaussian process's (bench/textbook-gp-ei.py), for
     * {@link GpFitter#productWithWeakPriors}.
     */
    public static DimensionScaled weak() {
      // evaluated as a density of the length scale, the mode in log space is mean - sd^2
      return new DimensionScaled(Math.log(0.5) + 1, 1);
    }

    @Override
    public double penalty(double[] p, double[] gradient, int dims) {
      double var = sd * sd;
      double out = 0;
      for (int d = 0; d < dims; d++) {
        double z = p[d] - mean;
        out += z * z / (2 * var) + p[d];
        gradient[d] += z / var + 1;
      }
      return out;
    }

    @Override
    public double typicalLog() {
      return mean;
    }

    @Override
    public double sampleLog(java.util.Random random) {
      return mean + sd * random.nextGaussian();
    }
  }

  /**
   * The sparse axis-aligned subspace prior of SAASBO (Eriksson and Jankowiak 2021): each inverse
   * squared length scale {@code rho = 1 / l^2} half-Cauchy with scale {@code tau}, in a MAP
   * estimate with tau fixed (as BoTorch's SAAS-MAP variant fixes it per model). The density,
   * evaluated in rho itself, is flat below tau and falls slowly (log) above: every dimension is
   * pushed towards irrelevance (rho to 0, an infinite length scale) and only the data can hold one
   * relevant, so with few observations among many inputs the inputs that do nothing get long length
   * scales, and the search does not spend trials on them. With tau fixed the scale matters: at
   * SAASBO's 0.1 a MAP fit explains everything as noise (README, optimizer benchmark), hence {@link
   * GpFitter#SAAS_TAU}.
   */
  record Saas(double tau) implements LengthScalePrior {
    @Override
    public double penalty(double[] p, double[] gradient, int dims) {
      double out = 0;
      double inverseTau2 = 1 / (tau * tau);
      for (int d = 0; d < dims; d++) {
        // (rho / tau)^2 = exp(-4 p) / tau^2
        double u = Math.exp(-4 * p[d]) * inverseTau2;
        out += Math.log1p(u);
        gradient[d] += -4 * u / (1 + u);
      }
      return out;
    }

    @Override
    public double typicalLog() {
      // rho = tau: the knee of the density
      return -0.5 * Math.log(tau);
    }

    @Override
    public double sampleLog(java.util.Random random) {
      // |Cauchy(0, tau)| by inversion, as log l = -log(rho) / 2
      double rho = tau * Math.tan(Math.PI / 2 * random.nextDouble());
      return -0.5 * Math.log(Math.max(rho, 1e-8));
    }
  }
}
