package org.pgknob.optimize.model;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Gaussian processes of hyperparameters drawn from their posterior, each conditioned on the same
 * observations: the fully Bayesian model of SAASBO. A prediction is the equal-weight mixture's mean
 * and variance; {@link #predictEach} gives each process's, so that expected improvement is averaged
 * over the processes, as SAASBO does.
 */
public final class GpEnsemble implements Surrogate {
  private final GaussianProcess[] members;

  public GpEnsemble(List<GaussianProcess> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("an ensemble needs at least one process");
    }
    this.members = members.toArray(new GaussianProcess[0]);
  }

  public List<GaussianProcess> members() {
    return List.of(members);
  }

  @Override
  public Prediction predict(double[] x) {
    return mixture(predictEach(x));
  }

  @Override
  public Prediction[] predictEach(double[] x) {
    Prediction[] out = new Prediction[members.length];
    for (int i = 0; i < members.length; i++) {
      out[i] = members[i].predict(x);
    }
    return out;
  }

  @Override
  public double mean(double[] x) {
    double s = 0;
    for (GaussianProcess m : members) {
      s += m.mean(x);
    }
    return s / members.length;
  }

  /** The mixture of the members' exact posteriors of the difference. */
  @Override
  public Prediction difference(double[] a, double[] b) {
    Prediction[] each = new Prediction[members.length];
    for (int i = 0; i < members.length; i++) {
      each[i] = members[i].difference(a, b);
    }
    return mixture(each);
  }

  /** The mixture of the members' upper bounds: an upper bound of the mixture's variance. */
  @Override
  public Optional<Prediction> optimistic(double[] x) {
    return optimisticEach(x).map(GpEnsemble::mixture);
  }

  @Override
  public Optional<Prediction[]> optimisticEach(double[] x) {
    Prediction[] out = new Prediction[members.length];
    for (int i = 0; i < members.length; i++) {
      out[i] = members[i].optimistic(x).orElseThrow();
    }
    return Optional.of(out);
  }

  /** The median over the members of each one's relevance (inverse length scale). */
  @Override
  public double relevance(int offset, int width) {
    double[] r = new double[members.length];
    for (int i = 0; i < members.length; i++) {
      r[i] = members[i].relevance(offset, width);
    }
    return median(r);
  }

  /** Each dimension's median length scale over the members. */
  public double[] medianLengthScales() {
    int dims = members[0].hyperparameters().lengthScales().length;
    double[] out = new double[dims];
    double[][] all = new double[members.length][];
    for (int i = 0; i < members.length; i++) {
      all[i] = members[i].hyperparameters().lengthScales();
    }
    for (int d = 0; d < dims; d++) {
      double[] column = new double[members.length];
      for (int i = 0; i < members.length; i++) {
        column[i] = all[i][d];
      }
      out[d] = median(column);
    }
    return out;
  }

  /** Mean and variance of the equal-weight mixture (law of total variance). */
  private static Prediction mixture(Prediction[] each) {
    double mean = 0;
    double second = 0;
    for (Prediction p : each) {
      mean += p.mean();
      second += p.variance() + p.mean() * p.mean();
    }
    mean /= each.length;
    second /= each.length;
    return new Prediction(mean, Math.max(0, second - mean * mean));
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  }
}
