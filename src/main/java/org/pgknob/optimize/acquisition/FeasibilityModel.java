package org.pgknob.optimize.acquisition;

import java.util.Random;
import org.pgknob.optimize.model.GaussianProcess;
import org.pgknob.optimize.model.GpFitter;
import org.pgknob.optimize.model.Prediction;

/**
 * The probability that a point runs at all (no crash, no guardrail trip, no timeout), learned from
 * the failures observed: a least-squares Gaussian-process classifier (Rasmussen and Williams 2006,
 * section 6.5). Labels +1 (ran) and -1 (failed) are regressed with a Matérn GP around their mean,
 * with the noise capped low so a lone failure is not explained away, and the latent value is
 * squashed through a probit that widens with the GP's uncertainty: {@code P = Phi(m / sqrt(s0^2 +
 * var))}. On an observed failure m is near -1 and P near Phi(-2) = 0.02; far from every observation
 * P falls back to the overall success rate's latent mean.
 */
public final class FeasibilityModel {
  /** Probit scale: a latent +-1 maps to Phi(+-2). */
  static final double PROBIT_SCALE = 0.5;

  /** Noise cap: labels are mostly deterministic (the same setting crashes again). */
  static final double MAX_NOISE = 0.05;

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
    GaussianProcess gp = GpFitter.fit(x, centered, new Random(seed), null, MAX_NOISE);
    return new FeasibilityModel(gp, mean);
  }

  /** log P(the point runs). */
  public double logProbability(double[] x) {
    Prediction p = gp.predict(x);
    double latent = labelMean + p.mean();
    return LogExpectedImprovement.logCdf(
        latent / Math.sqrt(PROBIT_SCALE * PROBIT_SCALE + p.variance()));
  }

  public double probability(double[] x) {
    return Math.exp(logProbability(x));
  }
}
