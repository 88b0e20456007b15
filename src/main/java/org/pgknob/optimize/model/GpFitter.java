package org.pgknob.optimize.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;

/**
 * Fits a {@link GaussianProcess} to standardized targets (prior mean 0) by maximizing the log
 * marginal likelihood plus weak priors (a MAP estimate), with analytic gradients, by L-BFGS from
 * the best of several starting points.
 *
 * <p>Parameters are fitted in the logarithm and kept within bounds by a smooth (logistic) map:
 * length scales in [0.01, 100] on the unit cube, signal variance in [0.05, 20], noise variance in
 * [1e-6, 2] (targets have variance 1, so these are relative). Priors: length scale ~
 * LogNormal(sqrt2 + ln(d) / 2, 3), the dimension-scaled prior of Hvarfner et al. 2024 ("Vanilla
 * Bayesian optimization performs great in high dimensions"), which keeps few data from fitting
 * wiggles; noise variance ~ LogNormal(-4, 1) (both as BoTorch's defaults); log signal variance ~
 * N(0, 1.5^2).
 *
 * <p>A fitter keeps its last hyperparameters as a warm start for the next fit, which is what keeps
 * refits cheap as observations arrive one at a time.
 */
public final class GpFitter implements SurrogateFitter {
  static final double MIN_LENGTH = 0.01;
  static final double MAX_LENGTH = 100;
  static final double MIN_SIGNAL = 0.05;
  static final double MAX_SIGNAL = 20;
  static final double MIN_NOISE = 1e-6;
  static final double MAX_NOISE = 2;

  private GpHyperparameters warmStart;

  @Override
  public String name() {
    return "gp";
  }

  @Override
  public GaussianProcess fit(double[][] x, double[] y, long seed) {
    GaussianProcess gp = fit(x, y, new Random(seed), warmStart);
    warmStart = gp.hyperparameters();
    return gp;
  }

  /** Fits from a few starting points (and {@code warm}, if given and of the right dimension). */
  public static GaussianProcess fit(
      double[][] x, double[] y, Random random, GpHyperparameters warm) {
    return fit(x, y, random, warm, MAX_NOISE, MIN_LENGTH, MAX_SIGNAL);
  }

  /**
   * As {@link #fit(double[][], double[], Random, GpHyperparameters)} with the noise variance capped
   * at {@code maxNoise} (a feasibility model must not explain a lone failure away as noise) and the
   * length scales at least {@code minLength}.
   */
  public static GaussianProcess fit(
      double[][] x,
      double[] y,
      Random random,
      GpHyperparameters warm,
      double maxNoise,
      double minLength,
      double maxSignal) {
    int dims = x[0].length;
    int n = x.length;
    Objective objective = new Objective(x, y, maxNoise, minLength, maxSignal);
    List<double[]> starts = new ArrayList<>();
    if (warm != null && warm.lengthScales().length == dims) {
      starts.add(objective.toUnbounded(warm));
    }
    starts.add(objective.toUnbounded(uniform(dims, 0.5, 1, 0.01)));
    starts.add(objective.toUnbounded(uniform(dims, Math.exp(objective.lengthPriorMean), 1, 0.01)));
    for (int i = 0; i < 5; i++) {
      double[] ls = new double[dims];
      for (int d = 0; d < dims; d++) {
        ls[d] =
            Math.exp(objective.lengthPriorMean + objective.lengthPriorSd * random.nextGaussian());
      }
      starts.add(
          objective.toUnbounded(
              new GpHyperparameters(
                  ls, Math.exp(random.nextGaussian()), Math.exp(-4 + random.nextGaussian()))));
    }
    // run L-BFGS only from the most promising starts: each evaluation is O(n^3)
    int runs = n <= 60 ? 3 : n <= 120 ? 2 : 1;
    int iterations = n <= 120 ? 80 : 40;
    double[] scratch = new double[dims + 2];
    List<Double> values = new ArrayList<>();
    for (double[] s : starts) {
      values.add(objective.value(s, scratch));
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < starts.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingDouble(values::get));
    double[] best = null;
    double bestValue = Double.POSITIVE_INFINITY;
    for (int r = 0; r < Math.min(runs, order.size()); r++) {
      double[] u = Lbfgs.minimize(objective, starts.get(order.get(r)), iterations);
      double v = objective.value(u, scratch);
      if (v < bestValue || best == null) {
        best = u;
        bestValue = v;
      }
    }
    return GaussianProcess.condition(x, y, 0, objective.toHyperparameters(best));
  }

  private static GpHyperparameters uniform(int dims, double length, double signal, double noise) {
    double[] ls = new double[dims];
    java.util.Arrays.fill(ls, length);
    return new GpHyperparameters(ls, signal, noise);
  }

  /** Negative log posterior of the hyperparameters, in unbounded coordinates. */
  static final class Objective implements Lbfgs.DifferentiableFunction {
    private final double[][] x;
    private final double[] y;
    private final int dims;
    final double lengthPriorMean;
    final double lengthPriorSd = Math.sqrt(3);
    private final double[] lo;
    private final double[] hi;

    Objective(double[][] x, double[] y, double maxNoise, double minLength, double maxSignal) {
      this.x = x;
      this.y = y;
      this.dims = x[0].length;
      this.lengthPriorMean = Math.sqrt(2) + 0.5 * Math.log(dims);
      lo = new double[dims + 2];
      hi = new double[dims + 2];
      for (int d = 0; d < dims; d++) {
        lo[d] = Math.log(minLength);
        hi[d] = Math.log(MAX_LENGTH);
      }
      lo[dims] = Math.log(MIN_SIGNAL);
      hi[dims] = Math.log(maxSignal);
      lo[dims + 1] = Math.log(MIN_NOISE);
      hi[dims + 1] = Math.log(maxNoise);
    }

    double[] toUnbounded(GpHyperparameters h) {
      double[] p = new double[dims + 2];
      double[] ls = h.lengthScales();
      for (int d = 0; d < dims; d++) {
        p[d] = Math.log(ls[d]);
      }
      p[dims] = Math.log(h.signalVariance());
      p[dims + 1] = Math.log(h.noiseVariance());
      double[] u = new double[p.length];
      for (int i = 0; i < p.length; i++) {
        double t = (p[i] - lo[i]) / (hi[i] - lo[i]);
        t = Math.min(1 - 1e-6, Math.max(1e-6, t));
        u[i] = Math.log(t / (1 - t));
      }
      return u;
    }

    double[] toLog(double[] u) {
      double[] p = new double[u.length];
      for (int i = 0; i < u.length; i++) {
        p[i] = lo[i] + (hi[i] - lo[i]) / (1 + Math.exp(-u[i]));
      }
      return p;
    }

    GpHyperparameters toHyperparameters(double[] u) {
      double[] p = toLog(u);
      double[] ls = new double[dims];
      for (int d = 0; d < dims; d++) {
        ls[d] = Math.exp(p[d]);
      }
      return new GpHyperparameters(ls, Math.exp(p[dims]), Math.exp(p[dims + 1]));
    }

    @Override
    public double value(double[] u, double[] gradient) {
      double[] p = toLog(u);
      double[] gradLog = new double[p.length];
      double v = negativeLogPosterior(x, y, p, gradLog, lengthPriorMean, lengthPriorSd);
      for (int i = 0; i < p.length; i++) {
        // d p / d u of the logistic map
        gradient[i] = gradLog[i] * (p[i] - lo[i]) * (hi[i] - p[i]) / (hi[i] - lo[i]);
      }
      return v;
    }
  }

  /**
   * The negative log marginal likelihood of {@code y} (prior mean 0) plus the priors' negative log
   * densities, and its gradient with respect to the log parameters {@code p = (log l_1..log l_d,
   * log signal variance, log noise variance)}: {@code -1/2 tr((alpha alpha^T - K^-1) dK/dp)}.
   */
  static double negativeLogPosterior(
      double[][] x,
      double[] y,
      double[] p,
      double[] gradient,
      double lengthPriorMean,
      double lengthPriorSd) {
    double nll = negativeLogLikelihood(x, y, p, gradient);
    if (!Double.isFinite(nll)) {
      return nll;
    }
    int dims = p.length - 2;
    double prior = 0;
    double varL = lengthPriorSd * lengthPriorSd;
    // log-normal densities in the parameter itself (as GPyTorch evaluates them): in log
    // coordinates that adds p, which moves the mode to mean - variance
    for (int d = 0; d < dims; d++) {
      double z = p[d] - lengthPriorMean;
      prior += z * z / (2 * varL) + p[d];
      gradient[d] += z / varL + 1;
    }
    double signalVar = 1.5 * 1.5;
    prior += p[dims] * p[dims] / (2 * signalVar);
    gradient[dims] += p[dims] / signalVar;
    double zn = p[dims + 1] + 4;
    prior += zn * zn / 2 + p[dims + 1];
    gradient[dims + 1] += zn + 1;
    return nll + prior;
  }

  /** The negative log marginal likelihood alone, with its gradient; +infinity if K is singular. */
  static double negativeLogLikelihood(double[][] x, double[] y, double[] p, double[] gradient) {
    int n = x.length;
    int dims = p.length - 2;
    double[] ls = new double[dims];
    for (int d = 0; d < dims; d++) {
      ls[d] = Math.exp(p[d]);
    }
    double signal = Math.exp(p[dims]);
    double noise = Math.exp(p[dims + 1]);
    double[] inv = MaternKernel.inverseSquared(ls);
    double[][] r = new double[n][n];
    double[][] k = new double[n][n];
    for (int i = 0; i < n; i++) {
      k[i][i] = signal + noise;
      for (int j = 0; j < i; j++) {
        double rij = MaternKernel.distance(x[i], x[j], inv);
        r[i][j] = rij;
        double v = signal * MaternKernel.correlation(rij);
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
    double[] lengthTerms = new double[dims];
    for (int i = 0; i < n; i++) {
      double wii = alpha[i] * alpha[i] - kInv[i][i];
      traceW += wii;
      signalTerm += wii * signal;
      for (int j = 0; j < i; j++) {
        double wij = alpha[i] * alpha[j] - kInv[i][j];
        signalTerm += 2 * wij * k[i][j];
        double factor = 2 * wij * signal * MaternKernel.gradientFactor(r[i][j]);
        double[] xi = x[i];
        double[] xj = x[j];
        for (int d = 0; d < dims; d++) {
          double diff = xi[d] - xj[d];
          lengthTerms[d] += factor * diff * diff;
        }
      }
    }
    for (int d = 0; d < dims; d++) {
      gradient[d] = -0.5 * lengthTerms[d] * inv[d];
    }
    gradient[dims] = -0.5 * signalTerm;
    gradient[dims + 1] = -0.5 * traceW * noise;
    return nll;
  }

  /** K^-1 = L^-T L^-1 from the lower Cholesky factor. */
  static double[][] inverseFromCholesky(double[][] lower) {
    int n = lower.length;
    double[][] li = new double[n][n];
    for (int j = 0; j < n; j++) {
      li[j][j] = 1 / lower[j][j];
      for (int i = j + 1; i < n; i++) {
        double s = 0;
        double[] row = lower[i];
        for (int k = j; k < i; k++) {
          s -= row[k] * li[k][j];
        }
        li[i][j] = s / row[i];
      }
    }
    double[][] out = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double s = 0;
        for (int k = i; k < n; k++) {
          s += li[k][i] * li[k][j];
        }
        out[i][j] = s;
        out[j][i] = s;
      }
    }
    return out;
  }
}
