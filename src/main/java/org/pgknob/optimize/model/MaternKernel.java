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
 *
 * <p>Inputs may be categorical (see {@link KernelInputs}): such an input holds a category's index
 * and is compared by equality, with the overlap kernel {@code exp(-[a_d != b_d] / l_d)} (CoCaBO, Ru
 * et al. 2020; CASMOPOLITAN, Wan et al. 2021). In the product part it multiplies the Matérn of the
 * numeric inputs, {@code s M(r) exp(-sum_c [a_c != b_c] / l_c)}; in the additive part it is the
 * input's one-dimensional term. Both are positive definite (a product and a sum of such kernels),
 * and equal points still have correlation 1.
 */
public final class MaternKernel {
  static final double SQRT5 = Math.sqrt(5);

  private MaternKernel() {}

  /** The kernel's correlation at scaled distance {@code r} (signal variance 1). */
  public static double correlation(double r) {
    return (1 + SQRT5 * r + 5.0 / 3.0 * r * r) * Math.exp(-SQRT5 * r);
  }

  /**
   * Points stored by dimension (column-major) with their exponentials, so that one point's
   * covariances with all of them are computed in loops over the points, which the JIT turns into
   * vector instructions; a loop over one pair's dimensions, with a branch on which of the two
   * coordinates is larger, ran ten times slower and took most of a suggestion's time.
   */
  static final class Columns {
    private final GpHyperparameters h;
    private final int size;

    // read by GpFitter's likelihood too, which needs per-pair gradient factors besides the
    // covariances: [dimension][point] coordinates and exp(+-sqrt5 x / l) (null without the
    // additive part), and per dimension 1 / l and 1 / l^2
    final double[][] x;
    final double[][] up;
    final double[][] down;
    final double[] inverseLengths;
    final double[] inverseSquared;

    // which inputs are categorical (null when none is), and per input exp(-1 / l), the overlap
    // kernel's correlation of two different categories
    final boolean[] categorical;
    final double[] mismatch;

    Columns(double[][] points, GpHyperparameters h) {
      this(points, h, null);
    }

    /** {@code categorical} marks the inputs compared by equality; null when none is. */
    Columns(double[][] points, GpHyperparameters h, boolean[] categorical) {
      this.h = h;
      this.size = points.length;
      int dims = h.lengthScales().length;
      this.categorical = categorical;
      this.inverseLengths = new double[dims];
      this.mismatch = new double[dims];
      double[] ls = h.lengthScales();
      for (int d = 0; d < dims; d++) {
        inverseLengths[d] = 1 / ls[d];
        mismatch[d] = Math.exp(-inverseLengths[d]);
      }
      this.inverseSquared = inverseSquared(ls);
      boolean additive = h.additiveVariance() > 0;
      x = new double[dims][size];
      up = additive ? new double[dims][size] : null;
      down = additive ? new double[dims][size] : null;
      for (int i = 0; i < size; i++) {
        for (int d = 0; d < dims; d++) {
          x[d][i] = points[i][d];
          if (additive && !isCategorical(d)) {
            double t = SQRT5 * points[i][d] * inverseLengths[d];
            up[d][i] = Math.exp(t);
            down[d][i] = Math.exp(-t);
          }
        }
      }
    }

    int size() {
      return size;
    }

    boolean isCategorical(int d) {
      return categorical != null && categorical[d];
    }

    /**
     * The covariances of {@code point} with the first {@code count} points, into {@code out};
     * {@code scratch} holds at least {@code count} values.
     *
     * <p>The additive part's {@code exp(-sqrt5 |a - b| / l)} is {@code exp(-sqrt5 a / l) exp(sqrt5
     * b / l)} for {@code a >= b}, and the other product is its reciprocal, so it is the smaller of
     * the two: each point's exponentials serve all its pairs without a branch.
     */
    void covariances(double[] point, int count, double[] out, double[] scratch) {
      boolean product = h.signalVariance() > 0;
      boolean additive = h.additiveVariance() > 0;
      double[] sum = out;
      double[] distance2 = scratch;
      java.util.Arrays.fill(sum, 0, count, 0);
      java.util.Arrays.fill(distance2, 0, count, 0);
      // the product part's sum of [a_c != b_c] / l_c over the categorical inputs
      double[] hamming = categorical != null && product ? new double[count] : null;
      for (int d = 0; d < x.length; d++) {
        double p = point[d];
        double[] column = x[d];
        if (isCategorical(d)) {
          overlap(d, p, count, sum, hamming, additive);
          continue;
        }
        if (product) {
          double c = inverseSquared[d];
          for (int j = 0; j < count; j++) {
            double diff = column[j] - p;
            distance2[j] += diff * diff * c;
          }
        }
        if (additive) {
          double il = inverseLengths[d];
          double pointUp = Math.exp(SQRT5 * p * il);
          double pointDown = 1 / pointUp;
          double[] u = up[d];
          double[] w = down[d];
          for (int j = 0; j < count; j++) {
            double r = Math.abs(column[j] - p) * il;
            double e = Math.min(w[j] * pointUp, u[j] * pointDown);
            sum[j] += (1 + SQRT5 * r + 5.0 / 3.0 * r * r) * e;
          }
        }
      }
      double additiveWeight = additive ? h.additiveVariance() / x.length : 0;
      double signal = h.signalVariance();
      for (int j = 0; j < count; j++) {
        double k = additiveWeight * sum[j];
        if (product) {
          double c = correlation(Math.sqrt(distance2[j]));
          k += signal * (hamming == null ? c : c * Math.exp(-hamming[j]));
        }
        out[j] = k;
      }
    }

    /**
     * A categorical input's terms: its mismatches (0 or 1: indices are whole numbers) over its
     * length scale into {@code hamming} (if not null), and its overlap correlation into the
     * additive part's {@code sum} (if {@code additive}); no branch, so the loops vectorize.
     */
    private void overlap(
        int d, double p, int count, double[] sum, double[] hamming, boolean additive) {
      double[] column = x[d];
      if (hamming != null) {
        double il = inverseLengths[d];
        for (int j = 0; j < count; j++) {
          hamming[j] += Math.min(1, Math.abs(column[j] - p)) * il;
        }
      }
      if (additive) {
        double loss = 1 - mismatch[d];
        for (int j = 0; j < count; j++) {
          sum[j] += 1 - Math.min(1, Math.abs(column[j] - p)) * loss;
        }
      }
    }
  }

  /**
   * The scaled distance {@code r} at which the Matérn correlation equals the overlap kernel's
   * correlation of two different categories, {@code exp(-1 / l)}: a categorical input's switch of
   * category as the move of a numeric input it is worth, so that relevances compare across both.
   */
  static double equivalentDistance(double lengthScale) {
    double target = Math.exp(-1 / lengthScale);
    double lo = 0;
    double hi = 1;
    while (correlation(hi) > target && hi < 1e6) {
      hi *= 2;
    }
    for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; i++) {
      double mid = (lo + hi) / 2;
      if (correlation(mid) > target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  static double[] inverseSquared(double[] lengthScales) {
    double[] out = new double[lengthScales.length];
    for (int d = 0; d < out.length; d++) {
      out[d] = 1 / (lengthScales[d] * lengthScales[d]);
    }
    return out;
  }
}
