package org.pgknob.optimize;

/**
 * A model's posterior belief about how the objective changes from one configuration to another, as
 * a log ratio oriented so that a gain is positive (for TPS {@code ln(to / from)}, for latency
 * {@code ln(from / to)}).
 *
 * @param logGain the posterior mean of the oriented log ratio
 * @param logSd its posterior standard deviation (the latent function's: noise-free)
 */
public record PredictedChange(double logGain, double logSd) {
  public PredictedChange {
    if (!Double.isFinite(logGain) || !(logSd >= 0) || !Double.isFinite(logSd)) {
      throw new IllegalArgumentException(
          "a change needs a finite mean and sd >= 0, but got " + logGain + ", " + logSd);
    }
  }

  /** The predicted loss as a log ratio: positive when the change makes things worse. */
  public double loss() {
    return -logGain;
  }

  /** The loss at {@code sds} posterior standard deviations on the worse side. */
  public double lossUpperBound(double sds) {
    return loss() + sds * logSd;
  }
}
