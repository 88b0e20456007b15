package org.pgknob.optimize.model;

import java.util.Optional;
import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;

/**
 * A Gaussian process regression conditioned on data, with a constant prior mean and a {@link
 * MaternKernel Matérn 5/2 ARD} kernel. Holds the Cholesky factor of the kernel matrix, so each
 * prediction costs one kernel vector and one triangular solve. Points are of the unit cube; the
 * kernel reads them through its {@link KernelInputs} (a categorical knob's one-hot block as one
 * input, with the overlap kernel).
 */
public final class GaussianProcess implements Surrogate {
  private static final double LOG_2PI = Math.log(2 * Math.PI);

  private final double priorMean;
  private final GpHyperparameters hyper;
  private final KernelInputs inputs;
  private final MaternKernel.Columns columns;

  /** Each observation's known noise variance, beyond the fitted common one; zeros when none. */
  private final double[] knownNoise;

  /** The Cholesky factor's transpose, L^T: row j is L's column j, for column-wise solves. */
  private final double[][] upper;

  private final double[] alpha;
  private final double logMarginalLikelihood;

  private GaussianProcess(
      double priorMean,
      GpHyperparameters hyper,
      KernelInputs inputs,
      MaternKernel.Columns columns,
      double[] knownNoise,
      double[][] upper,
      double[] alpha,
      double logMarginalLikelihood) {
    this.priorMean = priorMean;
    this.hyper = hyper;
    this.inputs = inputs;
    this.columns = columns;
    this.knownNoise = knownNoise;
    this.upper = upper;
    this.alpha = alpha;
    this.logMarginalLikelihood = logMarginalLikelihood;
  }

  /** The process with these hyperparameters conditioned on {@code y} at {@code x}. */
  public static GaussianProcess condition(
      double[][] x, double[] y, double priorMean, GpHyperparameters hyper) {
    return condition(x, y, null, priorMean, hyper);
  }

  /**
   * The process conditioned on {@code y} at {@code x}, observation i with noise variance {@code
   * hyper.noiseVariance() + knownNoise[i]} (a heteroscedastic diagonal: a measurement that says how
   * precise it is is trusted accordingly, and replicates of one point average down); {@code
   * knownNoise} null for none.
   */
  public static GaussianProcess condition(
      double[][] x, double[] y, double[] knownNoise, double priorMean, GpHyperparameters hyper) {
    return condition(KernelInputs.identity(x[0].length), x, y, knownNoise, priorMean, hyper);
  }

  /**
   * As {@link #condition(double[][], double[], double[], double, GpHyperparameters)}, the kernel
   * reading the unit cube's points {@code unitX} through {@code inputs} (one length scale each).
   */
  static GaussianProcess condition(
      KernelInputs inputs,
      double[][] unitX,
      double[] y,
      double[] knownNoise,
      double priorMean,
      GpHyperparameters hyper) {
    double[][] x = inputs.project(unitX);
    int n = x.length;
    double[] known = knownNoise == null ? new double[n] : knownNoise.clone();
    MaternKernel.Columns columns = new MaternKernel.Columns(x, hyper, inputs.categoricalMask());
    double[][] lower = cholesky(kernelMatrix(x, hyper, known, columns));
    double[] centered = new double[n];
    for (int i = 0; i < n; i++) {
      centered[i] = y[i] - priorMean;
    }
    double[] alpha = backward(lower, forward(lower, centered));
    double lml = -0.5 * dot(centered, alpha) - 0.5 * n * LOG_2PI;
    for (int i = 0; i < n; i++) {
      lml -= Math.log(lower[i][i]);
    }
    double[][] upper = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        upper[j][i] = lower[i][j];
      }
    }
    return new GaussianProcess(priorMean, hyper, inputs, columns, known, upper, alpha, lml);
  }

  @Override
  public Prediction predict(double[] point) {
    double[] k = covariancesWith(point);
    double mean = priorMean + dot(k, alpha);
    double[] v = k;
    solveLowerInPlace(v);
    return new Prediction(mean, Math.max(0, hyper.priorVariance() - dot(v, v)));
  }

  /**
   * The exact posterior of {@code f(a) - f(b)}: its prior variance {@code k(a,a) + k(b,b) - 2
   * k(a,b)} less what the observations explain, {@code |L^-1 (k_a - k_b)|^2}.
   */
  @Override
  public Prediction difference(double[] a, double[] b) {
    int n = columns.size();
    double[] ka = covariancesWith(a);
    double[] kb = covariancesWith(b);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = ka[i] - kb[i];
    }
    double mean = dot(v, alpha);
    solveLowerInPlace(v);
    double prior = 2 * (hyper.priorVariance() - covariance(a, b));
    return new Prediction(mean, Math.max(0, prior - dot(v, v)));
  }

  /** The prior covariance of two points, k(a, b). */
  private double covariance(double[] a, double[] b) {
    MaternKernel.Columns single =
        new MaternKernel.Columns(
            new double[][] {inputs.project(b)}, hyper, inputs.categoricalMask());
    double[] out = new double[1];
    single.covariances(inputs.project(a), 1, out, new double[1]);
    return out[0];
  }

  /** v := L^-1 v, by columns of L: each step is one vectorizable update of the rest. */
  private void solveLowerInPlace(double[] v) {
    int n = v.length;
    for (int j = 0; j < n; j++) {
      double[] row = upper[j];
      double vj = v[j] / row[j];
      v[j] = vj;
      for (int i = j + 1; i < n; i++) {
        v[i] -= row[i] * vj;
      }
    }
  }

  /**
   * The posterior mean, and as the variance the posterior variance given only the observation that
   * lowers it most, {@code prior - max_i k_i^2 / (prior + noise + known_i)}: conditioning on more
   * observations can only lower it. Costs the kernel vector, not the triangular solve.
   */
  @Override
  public Optional<Prediction> optimistic(double[] point) {
    double[] k = covariancesWith(point);
    double prior = hyper.priorVariance();
    double largest = 0;
    for (int i = 0; i < k.length; i++) {
      largest = Math.max(largest, k[i] * k[i] / (prior + hyper.noiseVariance() + knownNoise[i]));
    }
    // a sliver above, for the rounding of the exact variance's sum of squares
    double bound = prior - largest + 1e-12 * prior;
    return Optional.of(new Prediction(priorMean + dot(k, alpha), Math.max(0, bound)));
  }

  /** The posterior mean alone, without the triangular solve the variance needs. */
  @Override
  public double mean(double[] point) {
    return priorMean + dot(covariancesWith(point), alpha);
  }

  /** The point's covariances with every observation (the kernel vector k*). */
  private double[] covariancesWith(double[] point) {
    int n = columns.size();
    double[] k = new double[n];
    columns.covariances(inputs.project(point), n, k, new double[n]);
    return k;
  }

  /**
   * 1 / length scale of the knob's dimensions; for one-hot knobs the two largest combined; for a
   * categorical input the Matérn distance a switch of its category is worth.
   */
  @Override
  public double relevance(int offset, int width) {
    double[] ls = hyper.lengthScales();
    int input = inputs.inputAt(offset);
    if (inputs.isCategorical(input)) {
      return MaternKernel.equivalentDistance(ls[input]);
    }
    if (width == 1) {
      return 1 / ls[input];
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
    return columns.size();
  }

  /** The kernel matrix of {@code x} with the noise on its diagonal. */
  static double[][] kernelMatrix(double[][] x, GpHyperparameters hyper) {
    return kernelMatrix(x, hyper, new double[x.length], new MaternKernel.Columns(x, hyper));
  }

  /** The kernel matrix with the common and each observation's known noise on its diagonal. */
  static double[][] kernelMatrix(double[][] x, GpHyperparameters hyper, double[] knownNoise) {
    return kernelMatrix(x, hyper, knownNoise, (boolean[]) null);
  }

  /**
   * As {@link #kernelMatrix(double[][], GpHyperparameters, double[])}, of kernel inputs of which
   * {@code categorical} marks those compared by equality (null for none).
   */
  static double[][] kernelMatrix(
      double[][] x, GpHyperparameters hyper, double[] knownNoise, boolean[] categorical) {
    return kernelMatrix(
        x,
        hyper,
        knownNoise == null ? new double[x.length] : knownNoise,
        new MaternKernel.Columns(x, hyper, categorical));
  }

  private static double[][] kernelMatrix(
      double[][] x, GpHyperparameters hyper, double[] knownNoise, MaternKernel.Columns columns) {
    int n = x.length;
    double[][] k = new double[n][n];
    double[] scratch = new double[n];
    for (int i = 0; i < n; i++) {
      columns.covariances(x[i], i, k[i], scratch);
      k[i][i] = hyper.priorVariance() + hyper.noiseVariance() + knownNoise[i];
      for (int j = 0; j < i; j++) {
        k[j][i] = k[i][j];
      }
    }
    return k;
  }

  /**
   * The lower Cholesky factor, adding jitter to the diagonal if rounding makes the matrix
   * numerically indefinite.
   *
   * @throws NonPositiveDefiniteMatrixException when the matrix stays indefinite with the largest
   *     jitter
   */
  static double[][] cholesky(double[][] k) {
    double jitter = 0;
    double scale = 0;
    for (int i = 0; i < k.length; i++) {
      scale = Math.max(scale, k[i][i]);
    }
    for (int attempt = 0; ; attempt++) {
      try {
        return factor(k, jitter);
      } catch (NonPositiveDefiniteMatrixException e) {
        if (attempt >= 6) {
          throw e;
        }
        jitter = jitter == 0 ? 1e-10 * scale : jitter * 10;
      }
    }
  }

  /** Smallest pivot accepted, as Commons Math's default absolute positivity threshold. */
  private static final double MIN_PIVOT = 1e-14;

  /**
   * Cholesky-Banachiewicz, row by row: each entry is a dot product of two contiguous rows, which
   * ran several times faster than Commons Math's decomposition (bounds-checked accessors, a
   * transpose and two copies) on the fitter's hot path.
   */
  private static double[][] factor(double[][] k, double jitter) {
    int n = k.length;
    double[][] lower = new double[n][];
    for (int i = 0; i < n; i++) {
      double[] li = new double[n];
      lower[i] = li;
      for (int j = 0; j <= i; j++) {
        double[] lj = lower[j];
        double s = k[i][j];
        for (int t = 0; t < j; t++) {
          s -= li[t] * lj[t];
        }
        if (j < i) {
          li[j] = s / lj[j];
        } else {
          s += jitter;
          if (!(s >= MIN_PIVOT)) {
            throw new NonPositiveDefiniteMatrixException(s, i, MIN_PIVOT);
          }
          li[i] = Math.sqrt(s);
        }
      }
    }
    return lower;
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
