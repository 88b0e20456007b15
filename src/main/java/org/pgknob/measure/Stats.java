package org.pgknob.measure;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.random.RandomGenerator;

/** The few sample statistics and quantiles the estimators share. */
final class Stats {
  private Stats() {}

  static double mean(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  /** Sample standard deviation (n - 1); 0 for a single value. */
  static double sampleSd(double[] values) {
    if (values.length < 2) {
      return 0;
    }
    double m = mean(values);
    double squares = 0;
    for (double v : values) {
      squares += (v - m) * (v - m);
    }
    return Math.sqrt(squares / (values.length - 1));
  }

  /** The upper {@code p} quantile of Student's t with {@code df} degrees of freedom. */
  static double t(double p, double df) {
    if (df > 1e6) {
      return new NormalDistribution((RandomGenerator) null, 0, 1).inverseCumulativeProbability(p);
    }
    return new TDistribution((RandomGenerator) null, df).inverseCumulativeProbability(p);
  }

  static double[] logs(double[] values) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      if (!(values[i] > 0) || !Double.isFinite(values[i])) {
        throw new IllegalArgumentException(
            "value " + (i + 1) + " must be positive and finite, but got " + values[i]);
      }
      out[i] = Math.log(values[i]);
    }
    return out;
  }
}
