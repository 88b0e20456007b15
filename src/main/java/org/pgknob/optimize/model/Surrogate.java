package org.pgknob.optimize.model;

import java.util.Optional;

/** A fitted model of the objective over the unit cube. */
public interface Surrogate {
  Prediction predict(double[] x);

  /** The posterior mean alone; surrogates whose variance costs extra skip it. */
  default double mean(double[] x) {
    return predict(x).mean();
  }

  /**
   * The posterior mean with an upper bound of the posterior variance, cheaper than {@link
   * #predict}; empty when this surrogate has no cheaper bound.
   */
  default Optional<Prediction> optimistic(double[] x) {
    return Optional.empty();
  }

  /**
   * The predictions of each model this surrogate stands for: one for a single model, several for a
   * sample from the posterior over models (a fully Bayesian Gaussian process), over which an
   * acquisition is averaged rather than computed from the mixture's mean and variance.
   */
  default Prediction[] predictEach(double[] x) {
    return new Prediction[] {predict(x)};
  }

  /** As {@link #optimistic}, for each model of {@link #predictEach}. */
  default Optional<Prediction[]> optimisticEach(double[] x) {
    return optimistic(x).map(p -> new Prediction[] {p});
  }

  /**
   * The posterior of {@code f(a) - f(b)}: its mean and variance. The variance counts the two
   * points' posterior covariance where the surrogate knows it (two configurations that differ only
   * in a knob the model found inert have nearly the same value, so their difference is nearly
   * certain even where each value is not); without it, the two values are taken as independent,
   * which overstates the variance and so errs towards calling a difference uncertain.
   */
  default Prediction difference(double[] a, double[] b) {
    Prediction pa = predict(a);
    Prediction pb = predict(b);
    return new Prediction(pa.mean() - pb.mean(), pa.variance() + pb.variance());
  }

  /**
   * How strongly predictions depend on the unit-cube dimensions {@code [offset, offset + width)}
   * (one knob's), on a scale comparable across knobs; at least 0.
   */
  double relevance(int offset, int width);
}
