package org.pgknob.optimize.model;

import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;

/**
 * The quantities a Gaussian process's hyperparameters are judged by: the log marginal likelihood
 * with its analytic gradient, alone or plus the priors (the MAP objective {@link GpFitter} and
 * {@link SaasPosterior} climb), and the leave-one-out predictive density by which {@link GpFitter}
 * chooses between kernels. Separate from the fitter because these are the numerics (O(n^3) per
 * call, vectorizable loops) and the fitter is the policy (starts, bounds, which kernels compete).
 */
final class MarginalLikelihood {
  private MarginalLikelihood() {}

  /**
   * The negative log marginal likelihood of {@code y} (prior mean 0) plus the priors' negative log
   * densities, and its gradient with respect to the log parameters {@code p = (log l_1..log l_d,
   * log signal variance, log noise variance[, log additive variance])}: {@code -1/2 tr((alpha
   * alpha^T - K^-1) dK/dp)}. The additive variance is there when p has d + 3 entries; a log signal
   * variance of minus infinity is a kernel without the product part (and without its prior). {@code
   * categorical} marks the kernel inputs compared by equality (null for none); {@code noisePrior}
   * is the prior on the log noise variance.
   */
  static double negativeLogPosterior(
      double[][] x,
      double[] y,
      double[] knownNoise,
      boolean[] categorical,
      double[] p,
      double[] gradient,
      LengthScalePrior lengthPrior,
      NoisePrior noisePrior) {
    double nll = negativeLogLikelihood(x, y, knownNoise, categorical, p, gradient);
    if (!Double.isFinite(nll)) {
      return nll;
    }
    int dims = x[0].length;
    double prior = lengthPrior.penalty(p, gradient, dims);
    double signalVar = 1.5 * 1.5;
    if (Double.isFinite(p[dims])) {
      prior += p[dims] * p[dims] / (2 * signalVar);
      gradient[dims] += p[dims] / signalVar;
    }
    prior += noisePrior.penalty(p[dims + 1], gradient, dims + 1);
    if (p.length > dims + 2) {
      prior += p[dims + 2] * p[dims + 2] / (2 * signalVar);
      gradient[dims + 2] += p[dims + 2] / signalVar;
    }
    return nll + prior;
  }

  /**
   * The negative log marginal likelihood alone, with its gradient; +infinity if K is singular.
   *
   * <p>The pairwise loops run over observations stored by dimension, as {@link
   * MaternKernel.Columns} does for predictions: the JIT vectorizes them, and the additive part's
   * exponential needs no branch. Per pair, the kernel pass keeps what the gradient needs (each
   * part's value and derivative factor), so that no exponential is computed twice.
   *
   * <p>Each observation's known noise variance (null for none) is added to its diagonal entry; the
   * gradient's form is unchanged, since the known noise is a constant. {@code categorical} marks
   * the inputs compared by equality (null for none). For such an input c the kernel's derivatives
   * by log l_c are {@code k_product [a_c != b_c] / l_c} and, in the additive part, {@code [a_c !=
   * b_c] exp(-1 / l_c) / l_c}.
   */
  static double negativeLogLikelihood(
      double[][] x,
      double[] y,
      double[] knownNoise,
      boolean[] categorical,
      double[] p,
      double[] gradient) {
    int n = x.length;
    int dims = x[0].length;
    double[] ls = new double[dims];
    for (int d = 0; d < dims; d++) {
      ls[d] = Math.exp(p[d]);
    }
    double signal = Math.exp(p[dims]);
    double noise = Math.exp(p[dims + 1]);
    boolean additive = p.length > dims + 2;
    double additiveVar = additive ? Math.exp(p[dims + 2]) : 0;
    boolean product = signal > 0;
    MaternKernel.Columns columns =
        new MaternKernel.Columns(
            x, new GpHyperparameters(ls, signal, noise, additiveVar), categorical);
    double[] mismatch = columns.mismatch;
    double[] inv = columns.inverseSquared;
    double[] inverseLengths = columns.inverseLengths;
    double[][] column = columns.x;
    double[][] up = columns.up;
    double[][] down = columns.down;
    double[][] k = new double[n][n];
    // per pair (row i, j < i): the product part's value and its length-scale factor
    // (signal * -dk/dr / r), the additive part's mean correlation, and per dimension its
    // one-dimensional length-scale factor
    double[][] productValue = new double[n][];
    double[][] productFactor = new double[n][];
    double[][] sum = additive ? new double[n][] : null;
    double[][][] additiveFactors = additive ? new double[n][dims][] : null;
    double[] distance2 = new double[n];
    // the product part's sum of [a_c != b_c] / l_c over the categorical inputs (null for none)
    double[] hamming = categorical != null ? new double[n] : null;
    for (int i = 0; i < n; i++) {
      double[] xi = x[i];
      k[i][i] = signal + additiveVar + noise + (knownNoise == null ? 0 : knownNoise[i]);
      productValue[i] = new double[i];
      productFactor[i] = new double[i];
      if (product) {
        java.util.Arrays.fill(distance2, 0, i, 0);
        if (hamming != null) {
          java.util.Arrays.fill(hamming, 0, i, 0);
        }
        for (int d = 0; d < dims; d++) {
          double pd = xi[d];
          double[] col = column[d];
          if (columns.isCategorical(d)) {
            double il = inverseLengths[d];
            for (int j = 0; j < i; j++) {
              hamming[j] += Math.min(1, Math.abs(col[j] - pd)) * il;
            }
            continue;
          }
          double c = inv[d];
          for (int j = 0; j < i; j++) {
            double diff = col[j] - pd;
            distance2[j] += diff * diff * c;
          }
        }
        for (int j = 0; j < i; j++) {
          double r = Math.sqrt(distance2[j]);
          double e = Math.exp(-MaternKernel.SQRT5 * r);
          if (hamming != null) {
            // the overlap factor of the categorical inputs scales the value and every derivative
            e *= Math.exp(-hamming[j]);
          }
          productValue[i][j] = signal * (1 + MaternKernel.SQRT5 * r + 5.0 / 3.0 * r * r) * e;
          productFactor[i][j] = signal * 5.0 / 3.0 * (1 + MaternKernel.SQRT5 * r) * e;
        }
      }
      if (additive) {
        double[] total = new double[i];
        sum[i] = total;
        for (int d = 0; d < dims; d++) {
          double il = inverseLengths[d];
          double pd = xi[d];
          if (columns.isCategorical(d)) {
            double[] col = column[d];
            double loss = 1 - mismatch[d];
            for (int j = 0; j < i; j++) {
              total[j] += 1 - Math.min(1, Math.abs(col[j] - pd)) * loss;
            }
            continue;
          }
          double pointUp = up[d][i];
          double pointDown = down[d][i];
          double[] col = column[d];
          double[] u = up[d];
          double[] w = down[d];
          double[] f = new double[i];
          additiveFactors[i][d] = f;
          for (int j = 0; j < i; j++) {
            double rd = Math.abs(col[j] - pd) * il;
            double e = Math.min(w[j] * pointUp, u[j] * pointDown);
            total[j] += (1 + MaternKernel.SQRT5 * rd + 5.0 / 3.0 * rd * rd) * e;
            f[j] = 5.0 / 3.0 * (1 + MaternKernel.SQRT5 * rd) * e;
          }
        }
        for (int j = 0; j < i; j++) {
          total[j] /= dims;
        }
      }
      for (int j = 0; j < i; j++) {
        double v = productValue[i][j] + (additive ? additiveVar * sum[i][j] : 0);
        k[i][j] = v;
        k[j][i] = v;
      }
    }
    double[][] lower;
    try {
      lower = GaussianProcess.cholesky(k);
    } catch (NonPositiveDefiniteMatrixException e) {
      return Double.POSITIVE_INFINITY;
    }
    double[] alpha = GaussianProcess.backward(lower, GaussianProcess.forward(lower, y));
    double nll = 0.5 * GaussianProcess.dot(y, alpha) + 0.5 * n * Math.log(2 * Math.PI);
    for (int i = 0; i < n; i++) {
      nll += Math.log(lower[i][i]);
    }
    double[][] kInv = inverseFromCholesky(lower);
    java.util.Arrays.fill(gradient, 0);
    double traceW = 0;
    double signalTerm = 0;
    double additiveTerm = 0;
    double[] lengthTerms = new double[dims];
    double perDimension = additiveVar / dims;
    double[] weightProduct = new double[n];
    double[] weightAdditive = new double[n];
    // per pair, W's entry times the product part's value: a categorical input's product term
    double[] weightValue = new double[n];
    for (int i = 0; i < n; i++) {
      double wii = alpha[i] * alpha[i] - kInv[i][i];
      traceW += wii;
      signalTerm += wii * signal;
      additiveTerm += wii * additiveVar;
      for (int j = 0; j < i; j++) {
        // W = alpha alpha^T - K^-1, counted twice for the symmetric pair
        double wij = 2 * (alpha[i] * alpha[j] - kInv[i][j]);
        signalTerm += wij * productValue[i][j];
        weightProduct[j] = wij * productFactor[i][j];
        weightValue[j] = wij * productValue[i][j];
        if (additive) {
          additiveTerm += wij * additiveVar * sum[i][j];
          weightAdditive[j] = wij * perDimension;
        }
      }
      double[] xi = x[i];
      for (int d = 0; d < dims; d++) {
        double pd = xi[d];
        double[] col = column[d];
        double acc = 0;
        if (columns.isCategorical(d)) {
          // weightAdditive stays 0 without the additive part
          double e = mismatch[d];
          for (int j = 0; j < i; j++) {
            double mismatched = Math.min(1, Math.abs(col[j] - pd));
            acc += (weightValue[j] + weightAdditive[j] * e) * mismatched;
          }
        } else if (additive) {
          double[] f = additiveFactors[i][d];
          for (int j = 0; j < i; j++) {
            double diff = col[j] - pd;
            acc += (weightProduct[j] + weightAdditive[j] * f[j]) * diff * diff;
          }
        } else {
          for (int j = 0; j < i; j++) {
            double diff = col[j] - pd;
            acc += weightProduct[j] * diff * diff;
          }
        }
        lengthTerms[d] += acc;
      }
    }
    for (int d = 0; d < dims; d++) {
      // d r^2 / d log l is -2 diff^2 / l^2 for a numeric input; the overlap's exponent is 1 / l
      gradient[d] = -0.5 * lengthTerms[d] * (columns.isCategorical(d) ? inverseLengths[d] : inv[d]);
    }
    gradient[dims] = -0.5 * signalTerm;
    gradient[dims + 1] = -0.5 * traceW * noise;
    if (additive) {
      gradient[dims + 2] = -0.5 * additiveTerm;
    }
    return nll;
  }

  /**
   * K^-1 = L^-T L^-1 from the lower Cholesky factor. Column j of L^-1 is kept as row j of its
   * transpose, so both the triangular solves and the final products run over contiguous rows.
   */
  static double[][] inverseFromCholesky(double[][] lower) {
    int n = lower.length;
    // inverseT[j][i] = (L^-1)[i][j], zero for i < j
    double[][] inverseT = new double[n][n];
    for (int j = 0; j < n; j++) {
      double[] m = inverseT[j];
      m[j] = 1 / lower[j][j];
      for (int i = j + 1; i < n; i++) {
        double[] row = lower[i];
        double s = 0;
        for (int t = j; t < i; t++) {
          s -= row[t] * m[t];
        }
        m[i] = s / row[i];
      }
    }
    double[][] out = new double[n][n];
    for (int i = 0; i < n; i++) {
      double[] a = inverseT[i];
      for (int j = 0; j <= i; j++) {
        double[] b = inverseT[j];
        double s = 0;
        for (int t = i; t < n; t++) {
          s += a[t] * b[t];
        }
        out[i][j] = s;
        out[j][i] = s;
      }
    }
    return out;
  }

  /**
   * The sum over observations of the log density of each one under the model conditioned on all the
   * others, with these hyperparameters (closed form: Rasmussen and Williams 2006, eq. 5.10 to
   * 5.12); minus infinity if the kernel matrix is singular. Known noise variances and the
   * categorical inputs as in {@link #negativeLogLikelihood} (null for none).
   */
  static double leaveOneOutLogDensity(
      double[][] x, double[] y, double[] knownNoise, boolean[] categorical, GpHyperparameters h) {
    double[][] lower;
    try {
      lower = GaussianProcess.cholesky(GaussianProcess.kernelMatrix(x, h, knownNoise, categorical));
    } catch (NonPositiveDefiniteMatrixException e) {
      return Double.NEGATIVE_INFINITY;
    }
    double[] alpha = GaussianProcess.backward(lower, GaussianProcess.forward(lower, y));
    double[][] kInv = inverseFromCholesky(lower);
    double sum = 0;
    for (int i = 0; i < y.length; i++) {
      // predictive variance 1 / [K^-1]_ii, residual alpha_i / [K^-1]_ii
      double precision = kInv[i][i];
      sum +=
          0.5 * Math.log(precision)
              - alpha[i] * alpha[i] / (2 * precision)
              - 0.5 * Math.log(2 * Math.PI);
    }
    return sum;
  }
}
