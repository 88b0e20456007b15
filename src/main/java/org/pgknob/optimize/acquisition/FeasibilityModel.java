package org.pgknob.optimize.acquisition;

import java.util.Random;
import org.pgknob.optimize.model.GaussianProcess;
import org.pgknob.optimize.model.GpFitter;

/**
 * The probability that a point runs at all (no crash, no guardrail trip, no timeout), learned from
 * the failures observed: a least-squares Gaussian-process classifier (Rasmussen and Williams 2006,
 * section 6.5). Labels +1 (ran) and -1 (failed) are regressed with a Matérn GP around their mean,
 * with the noise capped low so a lone failure is not explained away, and the posterior mean m is
 * squashed through a probit: {@code P = Phi(m / s)}. On an observed failure m is near -1 and P near
 * 0; far from every observation m falls back to the labels' mean. The GP's variance is left out on
 * purpose: in a region that failed around its edges but was never tried inside, a wide variance
 * would pull P back to 1/2 and the objective model's extrapolated improvement there would win;
 * exploring the unknown is EI's job, not the feasibility model's.
 */
public final class FeasibilityModel {
  /** Probit scale: a latent -1 (an observed failure) maps to Phi(-1 / 0.3) = 4e-4. */
  static final double PROBIT_SCALE = 0.3;

  /** Latent prior variance: labels are +-1, so a larger one only inflates the uncertainty. */
  static final double MAX_SIGNAL = 1.0;

  /** Noise cap: labels are mostly deterministic (the same setting crashes again). */
  static final double MAX_NOISE = 0.05;

  /**
   * Shortest length scale: failure regions are taken to be contiguous and at least this wide (on
   * the unit cube). Without it, 0/1 labels of a sharp boundary fit a length scale so short that
   * each failure only marks its own point and the rest of the failing region looks untried.
   */
  static final double MIN_LENGTH = 0.15;

  private final GaussianProcess gp;
  private final double labelMean;

  private FeasibilityModel(GaussianProcess gp, double labelMean) {
    this.gp = gp;
    this.labelMean = labelMean;
  }

  /** Fits the classifier; {@code feasible[i]} says whether {@code x[i]} ran. */
  public static FeasibilityModel fit(double[][] x, boolean[] feasible, long seed) {
    double mean = 0;
    for (boolean f : feasible) {
      mean += f ? 1 : -1;
    }
    mean /= feasible.length;
    double[] centered = new double[feasible.length];
    for (int i = 0; i < centered.length; i++) {
      centered[i] = (feasible[i] ? 1 : -1) - mean;
    }
    // the product kernel alone: an additive part spreads each failure along whole axes, and in
    // BayesTest's failing region it let more suggestions into the region, not fewer
    GaussianProcess gp =
        GpFitter.fit(x, centered, new Random(seed), null, MAX_NOISE, MIN_LENGTH, MAX_SIGNAL, false);
    return new FeasibilityModel(gp, mean);
  }

  /** log P(the point runs). */
  public double logProbability(double[] x) {
    return LogExpectedImprovement.logCdf((labelMean + gp.mean(x)) / PROBIT_SCALE);
  }

  public double probability(double[] x) {
    return Math.exp(logProbability(x));
  }
}
