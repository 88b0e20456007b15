package org.pgknob.optimize;

import java.util.Arrays;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/**
 * GP-Hedge (Hoffman, Brochu and de Freitas 2011, "Portfolio allocation for Bayesian optimization"),
 * over models instead of acquisition functions: each round every model nominates the point its
 * expected improvement ranks first, one nomination is chosen with probability in proportion to
 * {@code exp(eta * gain)}, and once the chosen point is observed every model's gain grows by the
 * refitted model's posterior mean at the point it nominated. So a model is judged every round,
 * chosen or not, by where the data now say its nomination lies, not by one noisy observation.
 *
 * <p>Why a portfolio: no one kernel searched every benchmark function best (bench/optimizer-
 * rounds.md, rounds 13 and 18). The product kernel alone under weak priors found Hartmann-6 in 20
 * dimensions in about half the regret of {@code GpFitter}'s choice between additive kernels, and
 * lost Styblinski-Tang's separable wells by as much; held-out density at 15 to 40 points did not
 * tell which would search better. The hedge needs no such forecast: it learns which model's
 * nominations pay from the search itself. Measured, it was a coin on every function over 60 seeds
 * (round 19), so it is an option ({@code portfolio=hedge}), not the default.
 */
final class ModelHedge {
  /**
   * The learning rate on the gains, which are posterior means of standardized targets (a round's
   * gains differ by a tenth to a whole unit): after a few rounds of one model nominating better
   * points it is chosen most of the time, and one lucky round does not decide it. 1, as in the
   * paper; the only value measured (round 19).
   */
  static final double ETA = 1;

  private final double eta;
  private final double[] gains;
  private final int[] chosen;
  private double[][] nominations;

  ModelHedge(int models, double eta) {
    if (models < 2 || !(eta >= 0)) {
      throw new IllegalArgumentException("a hedge needs two models or more and eta >= 0");
    }
    this.eta = eta;
    this.gains = new double[models];
    this.chosen = new int[models];
  }

  /**
   * Credits each model with {@code mean} (the refitted model's posterior mean) at the point it
   * nominated last round; nothing before the first round, nor for a model that nominated nothing.
   */
  void reward(ToDoubleFunction<double[]> mean) {
    if (nominations == null) {
      return;
    }
    for (int k = 0; k < gains.length; k++) {
      if (nominations[k] != null) {
        gains[k] += mean.applyAsDouble(nominations[k]);
      }
    }
  }

  /** This round's nominations, one per model in order (null where a model had none). */
  void nominate(double[][] points) {
    if (points.length != gains.length) {
      throw new IllegalArgumentException(
          points.length + " nominations for " + gains.length + " models");
    }
    nominations = points.clone();
  }

  /** The model whose nomination is taken: drawn with probability in proportion to exp(eta gain). */
  int choose(Random random) {
    double top = Arrays.stream(gains).max().orElseThrow();
    double[] weights = new double[gains.length];
    double total = 0;
    for (int k = 0; k < gains.length; k++) {
      // shifted by the largest gain, so the exponentials cannot overflow
      weights[k] = Math.exp(eta * (gains[k] - top));
      total += weights[k];
    }
    double u = random.nextDouble() * total;
    int pick = gains.length - 1;
    for (int k = 0; k < gains.length; k++) {
      if (u < weights[k]) {
        pick = k;
        break;
      }
      u -= weights[k];
    }
    chosen[pick]++;
    return pick;
  }

  /** Each model's accumulated gain, in order. */
  double[] gains() {
    return gains.clone();
  }

  /** How many times each model's nomination was taken, in order. */
  int[] chosen() {
    return chosen.clone();
  }
}
