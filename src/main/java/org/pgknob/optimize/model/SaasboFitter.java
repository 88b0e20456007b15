package org.pgknob.optimize.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;

/**
 * The fully Bayesian SAAS model (SAASBO, Eriksson and Jankowiak 2021): the hyperparameters of a
 * Matérn 5/2 product kernel are sampled from their posterior under the sparsity prior ({@link
 * SaasPosterior}: half-Cauchy on the global scale tau and on each inverse squared length scale) by
 * NUTS ({@link Nuts}), {@value #WARMUP} warm-up iterations and {@value #SAMPLES} draws thinned to
 * {@value #KEPT}, and the surrogate is the {@link GpEnsemble} of the {@value #KEPT} processes.
 * Unlike the MAP fit with tau fixed ({@link LengthScalePrior.Saas}), tau is inferred from the data,
 * and an input is judged relevant only where most of the posterior says so.
 *
 * <p>Cost: each NUTS step costs one likelihood and gradient (O(n^3)), and a run takes thousands. So
 * the fitter keeps its chain: the next run starts from the last draw with the adapted step size and
 * mass matrix, with a {@value #WARM_WARMUP}-iteration warm-up; and between runs, while fewer than
 * {@link #refitEvery} observations arrived since the last one, the kept hyperparameters are only
 * conditioned on the new data. Past {@link GpFitter#FULL_FIT_LIMIT} observations the chain runs on
 * {@link GpFitter#SUBSET} of them, as the MAP fitter's hyperparameters do. A fitter with the same
 * sequence of fits and seeds gives the same models.
 *
 * <p>{@link #medianEveryObservation()} ({@code prior=saasbo:median}) runs the chain at every
 * observation up to {@value #LIVE_UNTIL} (the model never lags the data) and predicts with the one
 * process at the posterior median of the hyperparameters (each length scale, the signal and the
 * noise variance the median over the kept draws), as BoTorch's {@code median_lengthscale}
 * summarizes a fit: expected improvement then weighs inputs by what most draws believe, where the
 * average over 16 processes also follows the few draws that give an inert input a short length
 * scale. {@link #everyObservation()} ({@code prior=saasbo:every}) keeps the 16-process average with
 * the chain at every observation, to tell the two changes apart.
 *
 * <p>A fitter {@link #withCategoricalKernel with the overlap kernel} ({@code categorical=overlap})
 * reads each categorical knob's one-hot block as one input compared by equality, as {@link
 * GpFitter}'s does, with one length scale under the sparsity prior ({@link SaasPosterior}).
 * One-hot, each category is a coordinate of its own, sparse by itself: a knob that matters must win
 * a short length scale on two or more coordinates from few points, and an inert 4-valued enum is
 * four chances for a draw to believe in it.
 */
public final class SaasboFitter implements SurrogateFitter {
  static final int WARMUP = 512;
  static final int SAMPLES = 256;
  static final int KEPT = 16;
  static final int WARM_WARMUP = 128;

  private final int warmup;
  private final int warmWarmup;
  private final int samples;
  private final boolean everyObservation;
  private final boolean atMedian;
  private final CategoricalKernel categoricalKernel;
  private Nuts.State chain;
  private List<GpHyperparameters> kept;
  private int dims = -1;

  /** Which of the chain's inputs are categorical (null for none): a warm start needs the same. */
  private boolean[] categoricalInputs;

  private int fittedSize;

  /** SAASBO's chain: {@value #WARMUP} warm-up iterations and {@value #SAMPLES} draws. */
  public SaasboFitter() {
    this(WARMUP, WARM_WARMUP, SAMPLES);
  }

  /**
   * A chain of {@code warmup} warm-up iterations ({@code warmWarmup} when it continues the last
   * run) and {@code samples} draws, thinned to {@value #KEPT}: shorter chains for tests of what
   * does not depend on the posterior's accuracy.
   */
  public SaasboFitter(int warmup, int warmWarmup, int samples) {
    this(warmup, warmWarmup, samples, false, false);
  }

  /**
   * As {@link #SaasboFitter(int, int, int)}; {@code everyObservation}: the chain continues at every
   * observation up to {@value #LIVE_UNTIL} (see {@link #refitEvery}); {@code atMedian}: the
   * surrogate is the one process at the kept draws' median hyperparameters.
   */
  public SaasboFitter(
      int warmup, int warmWarmup, int samples, boolean everyObservation, boolean atMedian) {
    this(warmup, warmWarmup, samples, everyObservation, atMedian, CategoricalKernel.ONE_HOT);
  }

  private SaasboFitter(
      int warmup,
      int warmWarmup,
      int samples,
      boolean everyObservation,
      boolean atMedian,
      CategoricalKernel categoricalKernel) {
    if (samples < KEPT || warmup < 0 || warmWarmup < 0) {
      throw new IllegalArgumentException(
          "a chain needs at least " + KEPT + " draws and no negative warm-up");
    }
    this.warmup = warmup;
    this.warmWarmup = warmWarmup;
    this.samples = samples;
    this.everyObservation = everyObservation;
    this.atMedian = atMedian;
    this.categoricalKernel = categoricalKernel;
  }

  /**
   * A fresh fitter (no chain) like this one, comparing categorical knobs with {@code kernel} when
   * {@link #fit(double[][], double[], double[], List, long)} is told their blocks.
   */
  public SaasboFitter withCategoricalKernel(CategoricalKernel kernel) {
    return new SaasboFitter(warmup, warmWarmup, samples, everyObservation, atMedian, kernel);
  }

  public CategoricalKernel categoricalKernel() {
    return categoricalKernel;
  }

  /** SAASBO's chain continued at every observation, the process at the posterior median. */
  public static SaasboFitter medianEveryObservation() {
    return new SaasboFitter(WARMUP, WARM_WARMUP, SAMPLES, true, true);
  }

  /** SAASBO's chain continued at every observation, expected improvement over 16 processes. */
  public static SaasboFitter everyObservation() {
    return new SaasboFitter(WARMUP, WARM_WARMUP, SAMPLES, true, false);
  }

  /**
   * Up to this many observations {@link #everyObservation()} and {@link #medianEveryObservation()}
   * run the chain at each one: early, one observation moves the posterior of 20 length scales most,
   * and the benchmark's 40 evaluations lie below; past it they fall back to {@link #refitEvery}, so
   * a suggestion at 200 observations conditions the kept draws and runs no chain.
   */
  static final int LIVE_UNTIL = 50;

  @Override
  public String name() {
    return "gp";
  }

  /**
   * Observations that may arrive between two runs of the chain: 5, or one in 10% past 50
   * (hyperparameters move little per observation once there are dozens, and each run costs
   * seconds).
   */
  static int refitEvery(int observations) {
    return Math.max(REFIT_EVERY, observations / 10);
  }

  static final int REFIT_EVERY = 5;

  @Override
  public GpEnsemble fit(double[][] x, double[] y, long seed) {
    return fit(x, y, null, seed);
  }

  @Override
  public GpEnsemble fit(double[][] x, double[] y, double[] knownNoise, long seed) {
    return fit(x, y, knownNoise, List.of(), seed);
  }

  /**
   * As {@link #fit(double[][], double[], double[], long)}; with the overlap kernel, each of the
   * {@code categorical} blocks is one input (one length scale), else they are ignored.
   */
  @Override
  public GpEnsemble fit(
      double[][] unitX,
      double[] y,
      double[] knownNoise,
      List<CategoricalBlock> categorical,
      long seed) {
    KernelInputs inputs = KernelInputs.of(categoricalKernel, unitX[0].length, categorical);
    double[][] x = inputs.project(unitX);
    boolean[] mask = inputs.categoricalMask();
    int n = x.length;
    boolean warm =
        chain != null
            && dims == x[0].length
            && Arrays.equals(categoricalInputs, mask)
            && n >= fittedSize;
    int every = everyObservation && n <= LIVE_UNTIL ? 1 : refitEvery(n);
    if (!warm || n - fittedSize >= every) {
      sample(x, y, knownNoise, mask, seed, warm);
      fittedSize = n;
    }
    List<GaussianProcess> members = new ArrayList<>();
    if (atMedian) {
      try {
        return new GpEnsemble(
            List.of(GaussianProcess.condition(inputs, unitX, y, knownNoise, 0, median(kept))));
      } catch (NonPositiveDefiniteMatrixException e) {
        // the median's kernel matrix is singular on these points: the draws' average stands in
      }
    }
    for (GpHyperparameters h : kept) {
      try {
        members.add(GaussianProcess.condition(inputs, unitX, y, knownNoise, 0, h));
      } catch (NonPositiveDefiniteMatrixException e) {
        // a draw whose kernel matrix stays singular on these points is left out
      }
    }
    return new GpEnsemble(members);
  }

  private void sample(
      double[][] x, double[] y, double[] knownNoise, boolean[] mask, long seed, boolean warm) {
    HyperparameterData fitted = HyperparameterData.of(x, y, knownNoise);
    double[][] fx = fitted.x();
    double[] fy = fitted.y();
    double[] fk = fitted.knownNoise();
    SaasPosterior posterior = new SaasPosterior(fx, fy, fk, mask);
    Nuts nuts = new Nuts(posterior, posterior.parameters(), new Random(seed));
    Nuts.Run run;
    try {
      run =
          warm
              ? nuts.sample(chain, warmWarmup, samples, samples / KEPT)
              : nuts.sample(Nuts.start(posterior.start()), warmup, samples, samples / KEPT);
    } catch (IllegalArgumentException e) {
      // the last draw has no finite density on the new data (a singular kernel matrix): start over
      run = nuts.sample(Nuts.start(posterior.start()), warmup, samples, samples / KEPT);
    }
    chain = run.end();
    dims = x[0].length;
    categoricalInputs = mask;
    kept = new ArrayList<>();
    for (double[] q : run.draws()) {
      kept.add(posterior.hyperparameters(q));
    }
  }

  /**
   * The hyperparameters at the draws' coordinate-wise median: each length scale, the signal and the
   * noise variance apart (a median commutes with the logs the chain samples in).
   */
  static GpHyperparameters median(List<GpHyperparameters> draws) {
    int dims = draws.get(0).lengthScales().length;
    double[] ls = new double[dims];
    for (int d = 0; d < dims; d++) {
      int dim = d;
      ls[d] = GpEnsemble.median(draws.stream().mapToDouble(h -> h.lengthScales()[dim]).toArray());
    }
    return new GpHyperparameters(
        ls,
        GpEnsemble.median(draws.stream().mapToDouble(GpHyperparameters::signalVariance).toArray()),
        GpEnsemble.median(draws.stream().mapToDouble(GpHyperparameters::noiseVariance).toArray()));
  }
}
