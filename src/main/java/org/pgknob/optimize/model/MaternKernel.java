package org.pgknob.optimize.model;

/**
 * The Matérn 5/2 kernel with one length scale per dimension (ARD): {@code k(r) = s (1 + sqrt5 r + 5
 * r^2 / 3) exp(-sqrt5 r)} with {@code r^2 = sum_d ((a_d - b_d) / l_d)^2}. Twice differentiable, so
 * it suits physical response surfaces better than the squared exponential.
 *
 * <p>Optionally plus an additive part with the same length scales, {@code a / D sum_d k(|a_d - b_d|
 * / l_d)} (Duvenaud et al. 2011, "Additive Gaussian processes", orders 1 and D): most of a
 * setting's effect on throughput does not depend on the others (the premise of one-at-a-time
 * sweeps), and the additive part carries what one knob's trials teach to configurations that differ
 * in every other knob, where the product part alone, in a dozen dimensions, sees strangers.
 */
public final class MaternKernel {
  static final double SQRT5 = Math.sqrt(5);

  private MaternKernel() {}

  /** The kernel's correlation at scaled distance {@code r} (signal variance 1). */
  public static double correlation(double r) {
    return (1 + SQRT5 * r + 5.0 / 3.0 * r * r) * Math.exp(-SQRT5 * r);
  }

  /** {@code -dk/dr / r}, finite at r = 0: the factor of length-scale gradients. */
  static double gradientFactor(double r) {
    return 5.0 / 3.0 * (1 + SQRT5 * r) * Math.exp(-SQRT5 * r);
  }

  /**
   * The full covariance of two points: product part plus additive part, with the points'
   * exponentials {@code ea}, {@code eb} (null when the kernel has no additive part).
   */
  static double covariance(
      double[] a,
      double[] b,
      double[] inverseSquared,
      double[] lengthScales,
      GpHyperparameters h,
      Exponentials ea,
      Exponentials eb) {
    // without the product part (the additive part alone, see GpFitter) skip its distance
    double k =
        h.signalVariance() > 0
            ? h.signalVariance() * correlation(distance(a, b, inverseSquared))
            : 0;
    if (h.additiveVariance() > 0) {
      k += h.additiveVariance() * additiveCorrelation(a, b, lengthScales, ea, eb);
    }
    return k;
  }

  /**
   * The mean of the one-dimensional correlations (the additive part with variance 1), from each
   * point's precomputed exponentials: {@code exp(-sqrt5 |a - b| / l)} is {@code exp(-sqrt5 a / l)
   * exp(sqrt5 b / l)} for {@code a >= b}, so a point's 2d exponentials serve all its pairs, where
   * computing each pair's would take most of a model's time with many dimensions.
   */
  static double additiveCorrelation(
      double[] a, double[] b, double[] lengthScales, Exponentials ea, Exponentials eb) {
    double s = 0;
    for (int d = 0; d < a.length; d++) {
      double r = Math.abs(a[d] - b[d]) / lengthScales[d];
      double e = a[d] >= b[d] ? ea.down[d] * eb.up[d] : ea.up[d] * eb.down[d];
      s += (1 + SQRT5 * r + 5.0 / 3.0 * r * r) * e;
    }
    return s / a.length;
  }

  /**
   * {@code exp(+-sqrt5 x_d / l_d)} of one point. With length scales of at least 0.01 on the unit
   * cube the exponents stay within +-224, far from overflow.
   */
  static final class Exponentials {
    final double[] up;
    final double[] down;

    private Exponentials(double[] up, double[] down) {
      this.up = up;
      this.down = down;
    }

    /** Every point's exponentials, or null when {@code h} has no additive part. */
    static Exponentials[] ofAll(double[][] x, GpHyperparameters h) {
      if (h.additiveVariance() <= 0) {
        return null;
      }
      double[] lengthScales = h.lengthScales();
      Exponentials[] out = new Exponentials[x.length];
      for (int i = 0; i < x.length; i++) {
        out[i] = of(x[i], lengthScales);
      }
      return out;
    }

    static Exponentials of(double[] x, double[] lengthScales) {
      double[] up = new double[x.length];
      double[] down = new double[x.length];
      for (int d = 0; d < x.length; d++) {
        double t = SQRT5 * x[d] / lengthScales[d];
        up[d] = Math.exp(t);
        down[d] = Math.exp(-t);
      }
      return new Exponentials(up, down);
    }
  }

  /** Scaled distance with precomputed {@code 1 / l_d^2}. */
  static double distance(double[] a, double[] b, double[] inverseSquaredLengthScales) {
    double s = 0;
    for (int d = 0; d < a.length; d++) {
      double diff = a[d] - b[d];
      s += diff * diff * inverseSquaredLengthScales[d];
    }
    return Math.sqrt(s);
  }

  static double[] inverseSquared(double[] lengthScales) {
    double[] out = new double[lengthScales.length];
    for (int d = 0; d < out.length; d++) {
      out[d] = 1 / (lengthScales[d] * lengthScales[d]);
    }
    return out;
  }
}
