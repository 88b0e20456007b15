package org.pgknob.optimize.model;

/**
 * The Matérn 5/2 kernel with one length scale per dimension (ARD): {@code k(r) = s (1 + sqrt5 r + 5
 * r^2 / 3) exp(-sqrt5 r)} with {@code r^2 = sum_d ((a_d - b_d) / l_d)^2}. Twice differentiable, so
 * it suits physical response surfaces better than the squared exponential.
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
