package org.pgknob.optimize.model;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;

/**
 * A Gaussian process regression conditioned on data, with a constant prior mean and a {@link
 * MaternKernel Matérn 5/2 ARD} kernel. Holds the Cholesky factor of the kernel matrix, so each
 * prediction costs one kernel vector and one triangular solve.
 */
public final class GaussianProcess implements Surrogate {
  private static final double LOG_2PI = Math.log(2 * Math.PI);

  private final double[][] x;
  private final double priorMean;
  private final GpHyperparameters hyper;
  private final double[] lengthScales;
  private final double[] inverseSquared;

  /** Each observed point's exponentials for the additive part; null without one. */
  private final MaternKernel.Exponentials[] exponentials;

  private final double[][] lower;
  private final double[] alpha;
  private final double logMarginalLikelihood;

  private GaussianProcess(
      double[][] x,
      double priorMean,
      GpHyperparameters hyper,
      MaternKernel.Exponentials[] exponentials,
      double[][] lower,
      double[] alpha,
      double logMarginalLikelihood) {
    this.x = x;
    this.priorMean = priorMean;
    this.hyper = hyper;
    this.lengthScales = hyper.lengthScales();
    this.inverseSquared = MaternKernel.inverseSquared(lengthScales);
    this.exponentials = exponentials;
    this.lower = lower;
    this.alpha = alpha;
    this.logMarginalLikelihood = logMarginalLikelihood;
  }

  /** The process with these hyperparameters conditioned on {@code y} at {@code x}. */
  public static GaussianProcess condition(
      double[][] x, double[] y, double priorMean, GpHyperparameters hyper) {
    int n = x.length;
    MaternKernel.Exponentials[] exponentials = MaternKernel.Exponentials.ofAll(x, hyper);
    double[][] k = kernelMatrix(x, hyper, exponentials);
    double[][] lower = cholesky(k);
    double[] centered = new double[n];
    for (int i = 0; i < n; i++) {
      centered[i] = y[i] - priorMean;
    }
    double[] alpha = backward(lower, forward(lower, centered));
    double lml = -0.5 * dot(centered, alpha) - 0.5 * n * LOG_2PI;
    for (int i = 0; i < n; i++) {
      lml -= Math.log(lower[i][i]);
    }
    return new GaussianProcess(x.clone(), priorMean, hyper, exponentials, lower, alpha, lml);
  }

  @Override
  public Prediction predict(double[] point) {
    int n = x.length;
    double[] kStar = new double[n];
    double mean = priorMean;
    MaternKernel.Exponentials own =
        exponentials == null ? null : MaternKernel.Exponentials.of(point, lengthScales);
    for (int i = 0; i < n; i++) {
      double k =
          MaternKernel.covariance(
              point,
              x[i],
              inverseSquared,
              lengthScales,
              hyper,
              own,
              exponentials == null ? null : exponentials[i]);
      kStar[i] = k;
      mean += k * alpha[i];
    }
    double[] v = forward(lower, kStar);
    return new Prediction(mean, Math.max(0, hyper.priorVariance() - dot(v, v)));
  }

  /** 1 / length scale of the knob's dimensions; for one-hot knobs the two largest combined. */
  @Override
  public double relevance(int offset, int width) {
    double[] ls = hyper.lengthScales();
    if (width == 1) {
      return 1 / ls[offset];
    }
    // switching category moves two one-hot coordinates by 1: the largest such kernel distance
    double first = 0;
    double second = 0;
    for (int d = offset; d < offset + width; d++) {
      double inv = 1 / ls[d];
      if (inv > first) {
        second = first;
        first = inv;
      } else if (inv > second) {
        second = inv;
      }
    }
    return Math.sqrt(first * first + second * second);
  }

  public GpHyperparameters hyperparameters() {
    return hyper;
  }

  public double logMarginalLikelihood() {
    return logMarginalLikelihood;
  }

  public int size() {
    return x.length;
  }

  /** The kernel matrix with the noise on its diagonal; {@code exponentials} as {@link #predict}. */
  static double[][] kernelMatrix(
      double[][] x, GpHyperparameters hyper, MaternKernel.Exponentials[] exponentials) {
    int n = x.length;
    double[] ls = hyper.lengthScales();
    double[] inv = MaternKernel.inverseSquared(ls);
    double[][] k = new double[n][n];
    for (int i = 0; i < n; i++) {
      k[i][i] = hyper.priorVariance() + hyper.noiseVariance();
      for (int j = 0; j < i; j++) {
        double v =
            MaternKernel.covariance(
                x[i],
                x[j],
                inv,
                ls,
                hyper,
                exponentials == null ? null : exponentials[i],
                exponentials == null ? null : exponentials[j]);
        k[i][j] = v;
        k[j][i] = v;
      }
    }
    return k;
  }

  /**
   * The lower Cholesky factor (Commons Math), adding jitter to the diagonal if rounding makes the
   * matrix numerically indefinite.
   */
  static double[][] cholesky(double[][] k) {
    double jitter = 0;
    double scale = 0;
    for (int i = 0; i < k.length; i++) {
      scale = Math.max(scale, k[i][i]);
    }
    for (int attempt = 0; ; attempt++) {
      double[][] m = new double[k.length][];
      for (int i = 0; i < k.length; i++) {
        m[i] = k[i].clone();
        m[i][i] += jitter;
      }
      try {
        return new CholeskyDecomposition(new Array2DRowRealMatrix(m, false), 1e-8, 1e-14)
            .getL()
            .getData();
      } catch (NonPositiveDefiniteMatrixException e) {
        if (attempt >= 6) {
          throw e;
        }
        jitter = jitter == 0 ? 1e-10 * scale : jitter * 10;
      }
    }
  }

  /** Solves L v = b. */
  static double[] forward(double[][] lower, double[] b) {
    int n = b.length;
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      double[] row = lower[i];
      double s = b[i];
      for (int j = 0; j < i; j++) {
        s -= row[j] * v[j];
      }
      v[i] = s / row[i];
    }
    return v;
  }

  /** Solves L^T x = v. */
  static double[] backward(double[][] lower, double[] v) {
    int n = v.length;
    double[] out = new double[n];
    for (int i = n - 1; i >= 0; i--) {
      double s = v[i];
      for (int j = i + 1; j < n; j++) {
        s -= lower[j][i] * out[j];
      }
      out[i] = s / lower[i][i];
    }
    return out;
  }

  static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
