package org.pgknob.optimize.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Fits a {@link GaussianProcess} to standardized targets (prior mean 0) by maximizing the log
 * marginal likelihood plus weak priors (a MAP estimate; {@link MarginalLikelihood}), with analytic
 * gradients, by L-BFGS from the best of several starting points.
 *
 * <p>Parameters are fitted in the logarithm and kept within bounds by a smooth (logistic) map:
 * length scales in [0.01, 100] on the unit cube, signal variance in [0.05, 20], noise variance in
 * [1e-6, 2], the additive part's variance (when the kernel has one, see {@link MaternKernel}) in
 * [1e-4, 20] (targets have variance 1, so these are relative). Priors: length scale ~
 * LogNormal(sqrt2 + ln(d) / 2, 3), the dimension-scaled prior of Hvarfner et al. 2024 ("Vanilla
 * Bayesian optimization performs great in high dimensions"), which keeps few data from fitting
 * wiggles; noise variance ~ LogNormal(-4, 1) (both as BoTorch's defaults); the logs of both signal
 * variances ~ N(0, 1.5^2), so the data decide how much is additive. Optionally the length scales
 * get the SAAS prior instead ({@link LengthScalePrior.Saas}); on the optimizer benchmark it helped
 * where most inputs do nothing and hurt where all matter (README), so it is not the default.
 * Observations may carry a known noise variance each, added to the fitted common one.
 *
 * <p>The Bayes optimizer's fitter fits two kernels and keeps the one whose leave-one-out
 * predictions of the observations are the more probable (Rasmussen and Williams 2006, section
 * 5.4.2): the additive part alone, or the product part plus the additive part. Why not simply the
 * second, whose additive part can take all the variance if the data say so: its MAP fit uses the
 * product part, with short length scales, to fit a local bump around the cluster of points where
 * the search refines; far from the cluster the bump is gone, so every long one-knob move (a knob
 * switching to another basin of its curve) is predicted as a loss, and the search stays in the
 * basins it found first. Measured on the benchmark's 12-D Styblinski-Tang (30 seeds, 40
 * evaluations): all four relevant inputs ended in their deeper basin in 7 to 15 seeds with the
 * joint kernel alone, in 22 with the choice (median regret 15.1 then, 4.3 now); where knobs
 * interact the joint kernel predicts better and is kept (GaussianProcessTest). Leave-one-out
 * density needs no count of parameters (which a penalized likelihood would), and costs one more
 * Cholesky factor and inverse per kernel, as much as one step of the fit.
 *
 * <p>Categorical knobs are one-hot dimensions by default; a fitter {@link #withCategoricalKernel
 * with the overlap kernel} reads each one-hot block as one input compared by equality (see {@link
 * MaternKernel}), with one length scale per knob.
 *
 * <p>A fitter keeps its last hyperparameters (per kernel) as a warm start for the next fit, which
 * is what keeps refits cheap as observations arrive one at a time.
 */
public final class GpFitter implements SurrogateFitter {
  static final double MIN_LENGTH = 0.01;
  static final double MAX_LENGTH = 100;
  static final double MIN_SIGNAL = 0.05;
  static final double MAX_SIGNAL = 20;
  static final double MIN_NOISE = 1e-6;
  static final double MAX_NOISE = 2;
  static final double MIN_ADDITIVE = 1e-4;

  private final boolean additive;
  private final double saasTau;
  private final boolean adaptive;
  private final int sparseFromDimensions;
  private final CategoricalKernel categoricalKernel;
  private final boolean weakPriors;
  private GpHyperparameters warmJoint;
  private GpHyperparameters warmAdditive;
  private GpHyperparameters warmSparse;

  /**
   * The Bayes optimizer's fitter: the additive part, with the product part if it predicts better,
   * under the dimension-scaled prior on the length scales (see {@link LengthScalePrior}).
   */
  public GpFitter() {
    this(true, 0, false, 0, CategoricalKernel.ONE_HOT, false);
  }

  private GpFitter(
      boolean additive,
      double saasTau,
      boolean adaptive,
      int sparseFromDimensions,
      CategoricalKernel categoricalKernel,
      boolean weakPriors) {
    this.additive = additive;
    this.saasTau = saasTau;
    this.adaptive = adaptive && saasTau > 0;
    this.sparseFromDimensions = sparseFromDimensions;
    this.categoricalKernel = categoricalKernel;
    this.weakPriors = weakPriors;
  }

  /**
   * The product kernel alone under weak priors: length scales log-normal with mode 0.5 and
   * log-space sd 1 ({@link LengthScalePrior.DimensionScaled#weak}), noise {@link NoisePrior#WEAK}.
   * It is the model of the textbook Gaussian process (bench/textbook-gp-ei.py) that searched
   * Hartmann-6 in 20 dimensions better than this class's choice of kernel and Styblinski-Tang's
   * separable wells worse (bench/optimizer-rounds.md, rounds 18 and 19); with {@code
   * portfolio=hedge}, {@code Bayes} hedges between the two ({@code ModelHedge}).
   */
  public static GpFitter productWithWeakPriors() {
    return new GpFitter(false, 0, false, 0, CategoricalKernel.ONE_HOT, true);
  }

  /**
   * A fresh fitter (no warm start) like this one, comparing categorical knobs with {@code kernel}
   * when {@link #fit(double[][], double[], double[], List, long)} is told their blocks.
   */
  public GpFitter withCategoricalKernel(CategoricalKernel kernel) {
    return new GpFitter(additive, saasTau, adaptive, sparseFromDimensions, kernel, weakPriors);
  }

  public CategoricalKernel categoricalKernel() {
    return categoricalKernel;
  }

  /**
   * The Bayes optimizer's fitter with the SAAS prior of global scale {@code saasTau} from {@code
   * fromDimensions} unit-cube dimensions up, and the dimension-scaled prior below: where a few
   * inputs among many matter, the sparse prior finds them from few observations; where every input
   * usually matters (a few dimensions), it would pull their length scales long for nothing.
   */
  public static GpFitter sparseFrom(int fromDimensions, double saasTau) {
    return new GpFitter(true, saasTau, false, fromDimensions, CategoricalKernel.ONE_HOT, false);
  }

  /**
   * The Bayes optimizer's fitter whose two kernels compete (by leave-one-out density) with a
   * product kernel fitted under the SAAS prior of global scale {@code saasTau}: the data choose
   * whether the space is sparse. With {@code saasTau} 0 it is the default fitter.
   */
  public static GpFitter adaptive(double saasTau) {
    return new GpFitter(true, saasTau, true, 0, CategoricalKernel.ONE_HOT, false);
  }

  /**
   * The Bayes optimizer's fitter with the sparsity (SAAS) prior of global scale {@code saasTau} on
   * the length scales instead of the dimension-scaled one. With {@code saasTau} 0 it is the default
   * fitter.
   */
  public static GpFitter withSaasPrior(double saasTau) {
    return new GpFitter(true, saasTau, false, 0, CategoricalKernel.ONE_HOT, false);
  }

  /**
   * The product kernel alone under the dimension-scaled prior, without the additive part or the
   * choice between kernels.
   */
  public static GpFitter productOnly() {
    return new GpFitter(false, 0, false, 0, CategoricalKernel.ONE_HOT, false);
  }

  /**
   * Unit-cube dimensions from which {@link #sparseFrom} fitters use the SAAS prior: above the
   * benchmark's 12-D Styblinski-Tang, which meets its goal with the dimension-scaled prior and was
   * not measured with the sparse one; on the 2-D Branin and the 6-D Hartmann, where every input
   * matters, the sparse prior lost to it (README).
   */
  public static final int SPARSE_FROM_DIMENSIONS = 13;

  /** The SAAS prior's global scale when none is given. */
  public static final double SAAS_TAU = 3.0;

  private LengthScalePrior prior(int dims) {
    if (weakPriors) {
      return LengthScalePrior.DimensionScaled.weak();
    }
    return saasTau > 0 && !adaptive && dims >= sparseFromDimensions
        ? new LengthScalePrior.Saas(saasTau)
        : LengthScalePrior.DimensionScaled.forDimensions(dims);
  }

  @Override
  public String name() {
    return "gp";
  }

  /**
   * Above this many observations the hyperparameters are fitted to {@link #SUBSET} of them (the
   * best half of the subset and an even spread of the rest) and the model is then conditioned on
   * all: each likelihood evaluation costs O(n^3), and two kernels fitted on 200 points took about 6
   * seconds a suggestion, against the 1 second the optimizer is meant to need. Hyperparameters
   * (length scales, variances) settle long before the 80th observation.
   */
  public static final int FULL_FIT_LIMIT = 80;

  static final int SUBSET = 60;

  @Override
  public GaussianProcess fit(double[][] x, double[] y, long seed) {
    return fit(x, y, null, seed);
  }

  /**
   * Fits to observations with known noise variances (null for none); the common noise variance is
   * still fitted, as the floor every observation has beyond what its measurement reported.
   */
  @Override
  public GaussianProcess fit(double[][] x, double[] y, double[] knownNoise, long seed) {
    return fit(x, y, knownNoise, List.of(), seed);
  }

  /**
   * As {@link #fit(double[][], double[], double[], long)}; with the overlap kernel, each of the
   * {@code categorical} blocks is one input (one length scale), else they are ignored.
   */
  @Override
  public GaussianProcess fit(
      double[][] unitX,
      double[] y,
      double[] knownNoise,
      List<CategoricalBlock> categorical,
      long seed) {
    KernelInputs inputs = KernelInputs.of(categoricalKernel, unitX[0].length, categorical);
    double[][] x = inputs.project(unitX);
    boolean[] mask = inputs.categoricalMask();
    Random random = new Random(seed);
    HyperparameterData fitted = HyperparameterData.of(x, y, knownNoise);
    double[][] fx = fitted.x();
    double[] fy = fitted.y();
    double[] fk = fitted.knownNoise();
    Data data =
        new Data(
            fx, fy, fk, prior(x[0].length), mask, weakPriors ? NoisePrior.WEAK : NoisePrior.USUAL);
    warmJoint =
        hyperparameters(
            data, x.length, random, warmJoint, MAX_NOISE, MIN_LENGTH, MAX_SIGNAL, true, additive);
    if (!additive) {
      return GaussianProcess.condition(inputs, unitX, y, knownNoise, 0, warmJoint);
    }
    warmAdditive =
        hyperparameters(
            data, x.length, random, warmAdditive, MAX_NOISE, MIN_LENGTH, MAX_SIGNAL, false, true);
    double additiveDensity =
        MarginalLikelihood.leaveOneOutLogDensity(fx, fy, fk, mask, warmAdditive);
    double jointDensity = MarginalLikelihood.leaveOneOutLogDensity(fx, fy, fk, mask, warmJoint);
    GpHyperparameters chosen = additiveDensity >= jointDensity ? warmAdditive : warmJoint;
    lastChoice = additiveDensity >= jointDensity ? "additive" : "joint";
    if (adaptive && x[0].length >= SPARSE_MIN_DIMENSIONS) {
      Data sparse = new Data(fx, fy, fk, new LengthScalePrior.Saas(saasTau), mask);
      warmSparse =
          hyperparameters(
              sparse, x.length, random, warmSparse, MAX_NOISE, MIN_LENGTH, MAX_SIGNAL, true, false);
      if (MarginalLikelihood.leaveOneOutLogDensity(fx, fy, fk, mask, warmSparse)
          > Math.max(additiveDensity, jointDensity)) {
        chosen = warmSparse;
        lastChoice = "sparse";
      }
    }
    return GaussianProcess.condition(inputs, unitX, y, knownNoise, 0, chosen);
  }

  private String lastChoice = "";

  /**
   * Unit-cube dimensions from which the adaptive fitter tries the sparse prior. Below, on the
   * benchmark's 2-D Branin, leave-one-out density chose the sparse fit and bayes fell to four times
   * random search's regret; in a few dimensions every input usually matters, which is what the
   * dimension-scaled prior assumes.
   */
  static final int SPARSE_MIN_DIMENSIONS = 12;

  /** Which kernel the last fit kept: {@code additive}, {@code joint} or {@code sparse}. */
  public String lastChoice() {
    return lastChoice;
  }

  /**
   * Kernel inputs, targets and their known noise variances (null for none), as fitted, the prior on
   * the length scales, which inputs are categorical (null for none), and the prior on the noise.
   */
  record Data(
      double[][] x,
      double[] y,
      double[] knownNoise,
      LengthScalePrior prior,
      boolean[] categorical,
      NoisePrior noise) {
    Data(double[][] x, double[] y, double[] knownNoise, LengthScalePrior prior) {
      this(x, y, knownNoise, prior, null);
    }

    Data(
        double[][] x,
        double[] y,
        double[] knownNoise,
        LengthScalePrior prior,
        boolean[] categorical) {
      this(x, y, knownNoise, prior, categorical, NoisePrior.USUAL);
    }
  }

  /**
   * Indices of {@code size} observations: the best {@code size / 2} (highest y), where the search
   * needs the model most, and the rest spread evenly over the others in the order observed.
   */
  static int[] subset(double[] y, int size) {
    Integer[] order = new Integer[y.length];
    for (int i = 0; i < y.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, Comparator.comparingDouble(i -> -y[i]));
    int best = size / 2;
    List<Integer> rest = new ArrayList<>(java.util.Arrays.asList(order).subList(best, y.length));
    rest.sort(null);
    int[] out = new int[size];
    for (int i = 0; i < best; i++) {
      out[i] = order[i];
    }
    for (int i = 0; i < size - best; i++) {
      out[best + i] = rest.get((int) ((long) i * rest.size() / (size - best)));
    }
    return out;
  }

  /** Fits from a few starting points (and {@code warm}, if given and of the right dimension). */
  public static GaussianProcess fit(
      double[][] x, double[] y, Random random, GpHyperparameters warm) {
    return fit(x, y, random, warm, MAX_NOISE, MIN_LENGTH, MAX_SIGNAL, false);
  }

  /**
   * As {@link #fit(double[][], double[], Random, GpHyperparameters)} with the noise variance capped
   * at {@code maxNoise} (a feasibility model must not explain a lone failure away as noise) and the
   * length scales at least {@code minLength}; with an additive part in the kernel if {@code
   * additive}.
   */
  public static GaussianProcess fit(
      double[][] x,
      double[] y,
      Random random,
      GpHyperparameters warm,
      double maxNoise,
      double minLength,
      double maxSignal,
      boolean additive) {
    return GaussianProcess.condition(
        x,
        y,
        0,
        hyperparameters(
            new Data(x, y, null, LengthScalePrior.DimensionScaled.forDimensions(x[0].length)),
            x.length,
            random,
            warm,
            maxNoise,
            minLength,
            maxSignal,
            true,
            additive));
  }

  /**
   * The MAP hyperparameters of a kernel with the product part (if {@code product}) and the additive
   * part (if {@code additive}); without the product part its signal variance is 0. The effort
   * (restarts, iterations) is set by {@code observed}, the number of observations in all, which may
   * be more than the points fitted.
   */
  private static GpHyperparameters hyperparameters(
      Data data,
      int observed,
      Random random,
      GpHyperparameters warm,
      double maxNoise,
      double minLength,
      double maxSignal,
      boolean product,
      boolean additive) {
    int dims = data.x()[0].length;
    int n = observed;
    Objective objective = new Objective(data, maxNoise, minLength, maxSignal, product, additive);
    double startAdditive = additive ? 0.5 : 0;
    List<double[]> starts = new ArrayList<>();
    if (warm != null
        && warm.lengthScales().length == dims
        && (warm.additiveVariance() > 0) == additive) {
      starts.add(objective.toUnbounded(warm));
    }
    starts.add(objective.toUnbounded(uniform(dims, 0.5, 1, 0.01, startAdditive)));
    starts.add(
        objective.toUnbounded(
            uniform(dims, Math.exp(objective.prior.typicalLog()), 1, 0.01, startAdditive)));
    for (int i = 0; i < 5; i++) {
      double[] ls = new double[dims];
      for (int d = 0; d < dims; d++) {
        ls[d] = Math.exp(objective.prior.sampleLog(random));
      }
      starts.add(
          objective.toUnbounded(
              new GpHyperparameters(
                  ls,
                  Math.exp(random.nextGaussian()),
                  Math.exp(-4 + random.nextGaussian()),
                  additive ? Math.exp(random.nextGaussian()) : 0)));
    }
    // run L-BFGS only from the most promising starts: each evaluation is O(n^3)
    // past FULL_FIT_LIMIT the warm start is close: a short polish from the best start
    int runs = n <= 60 ? 3 : n <= FULL_FIT_LIMIT ? 2 : 1;
    int iterations = n <= FULL_FIT_LIMIT ? 80 : 15;
    double[] scratch = new double[objective.parameters()];
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
    return objective.toHyperparameters(best);
  }

  private static GpHyperparameters uniform(
      int dims, double length, double signal, double noise, double additive) {
    double[] ls = new double[dims];
    java.util.Arrays.fill(ls, length);
    return new GpHyperparameters(ls, signal, noise, additive);
  }

  /**
   * Negative log posterior of the hyperparameters, in unbounded coordinates. Without the product
   * part the signal variance's coordinate stays in the vector but is ignored: the variance is 0.
   */
  static final class Objective implements Lbfgs.DifferentiableFunction {
    private final double[][] x;
    private final double[] y;
    private final double[] knownNoise;
    private final boolean[] categorical;
    private final int dims;
    private final boolean product;
    final LengthScalePrior prior;
    private final NoisePrior noisePrior;
    private final double[] lo;
    private final double[] hi;

    Objective(
        Data data,
        double maxNoise,
        double minLength,
        double maxSignal,
        boolean product,
        boolean additive) {
      this.x = data.x();
      this.y = data.y();
      this.knownNoise = data.knownNoise();
      this.categorical = data.categorical();
      this.dims = x[0].length;
      this.product = product;
      this.prior = data.prior();
      this.noisePrior = data.noise();
      int parameters = dims + (additive ? 3 : 2);
      lo = new double[parameters];
      hi = new double[parameters];
      for (int d = 0; d < dims; d++) {
        lo[d] = Math.log(minLength);
        hi[d] = Math.log(MAX_LENGTH);
      }
      lo[dims] = Math.log(MIN_SIGNAL);
      hi[dims] = Math.log(maxSignal);
      lo[dims + 1] = Math.log(MIN_NOISE);
      hi[dims + 1] = Math.log(maxNoise);
      if (additive) {
        lo[dims + 2] = Math.log(MIN_ADDITIVE);
        hi[dims + 2] = Math.log(maxSignal);
      }
    }

    int parameters() {
      return lo.length;
    }

    double[] toUnbounded(GpHyperparameters h) {
      double[] p = new double[lo.length];
      double[] ls = h.lengthScales();
      for (int d = 0; d < dims; d++) {
        p[d] = Math.log(ls[d]);
      }
      p[dims] = Math.log(h.signalVariance());
      p[dims + 1] = Math.log(h.noiseVariance());
      if (p.length > dims + 2) {
        p[dims + 2] = Math.log(h.additiveVariance());
      }
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
      if (!product) {
        p[dims] = Double.NEGATIVE_INFINITY;
      }
      return p;
    }

    GpHyperparameters toHyperparameters(double[] u) {
      double[] p = toLog(u);
      double[] ls = new double[dims];
      for (int d = 0; d < dims; d++) {
        ls[d] = Math.exp(p[d]);
      }
      return new GpHyperparameters(
          ls,
          Math.exp(p[dims]),
          Math.exp(p[dims + 1]),
          p.length > dims + 2 ? Math.exp(p[dims + 2]) : 0);
    }

    @Override
    public double value(double[] u, double[] gradient) {
      double[] p = toLog(u);
      double[] gradLog = new double[p.length];
      double v =
          MarginalLikelihood.negativeLogPosterior(
              x, y, knownNoise, categorical, p, gradLog, prior, noisePrior);
      for (int i = 0; i < p.length; i++) {
        // d p / d u of the logistic map
        gradient[i] = gradLog[i] * (p[i] - lo[i]) * (hi[i] - p[i]) / (hi[i] - lo[i]);
      }
      if (!product) {
        gradient[dims] = 0;
      }
      return v;
    }
  }
}
