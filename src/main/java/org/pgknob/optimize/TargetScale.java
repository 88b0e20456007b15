package org.pgknob.optimize;

import java.util.List;
import org.pgknob.optimize.model.CategoricalBlock;
import org.pgknob.optimize.model.GaussianProcess;
import org.pgknob.optimize.model.GpFitter;

/**
 * Chooses the scale the model sees positive objective values on, the log or the values themselves:
 * the one under which a Gaussian process explains the observations better, its log marginal
 * likelihood plus the log slope of the transform at each value (the change of variables that makes
 * the two likelihoods densities of the same values). Values that are not all positive stay on their
 * own scale.
 *
 * <p>Why not always the log: it is right for throughput and latency, which vary by factors and
 * whose run-to-run noise is a share of the value, so that on the log scale the noise is the same
 * everywhere, as the model assumes. Where the noise is a fixed amount and the best values come near
 * zero, the log stretches it where it matters most (a value of 0.1 measured to within 0.15 spans
 * more than the whole range of the worse half on the log scale): the model sees the best region as
 * the noisiest, and the search stalls there. Which case a session is in is what its observations
 * say, so the likelihood decides. On the optimizer benchmark (README, "Optimizers"), whose noise is
 * a fixed share of each function's range, the choice gave the values' own scale in every fit traced
 * (Ackley and the 17-knob mixed space, by 0.2 to 15 nats) and brought the regret of the mixed
 * spaces and Ackley down; on throughput whose noise is a share of it, it keeps the log.
 */
final class TargetScale {
  private TargetScale() {}

  /**
   * The transform for these values: on the log scale when every value is positive and the log
   * explains them at least as well as the values' own scale.
   *
   * @param x the observations' points in the unit cube
   * @param standardErrors each value's reported standard error, 0 for none
   */
  static TargetTransform choose(
      List<Double> values,
      Direction direction,
      double[][] x,
      double[] standardErrors,
      List<CategoricalBlock> categorical,
      long seed) {
    TargetTransform usual = TargetTransform.fit(values, direction);
    if (!usual.log()) {
      return usual;
    }
    TargetTransform linear = TargetTransform.fit(values, direction, false);
    double linearEvidence = evidence(linear, values, x, standardErrors, categorical, seed);
    double logEvidence = evidence(usual, values, x, standardErrors, categorical, seed);
    return linearEvidence > logEvidence ? linear : usual;
  }

  /**
   * The log likelihood of the values under a Gaussian process fitted to them as {@code t}
   * transforms them: the fit's log marginal likelihood plus the transform's log slope at each
   * value.
   */
  static double evidence(
      TargetTransform t,
      List<Double> values,
      double[][] x,
      double[] standardErrors,
      List<CategoricalBlock> categorical,
      long seed) {
    double[] y = new double[values.size()];
    double[] noise = new double[values.size()];
    double slopes = 0;
    for (int i = 0; i < y.length; i++) {
      y[i] = t.forward(values.get(i));
      noise[i] = t.forwardVariance(values.get(i), standardErrors[i]);
      slopes += t.logSlope(values.get(i));
    }
    GaussianProcess gp = new GpFitter().fit(x, y, noise, categorical, seed);
    return gp.logMarginalLikelihood() + slopes;
  }
}
