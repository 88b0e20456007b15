package org.pgknob.optimize;

import java.util.List;

/**
 * Maps objective values to the model's scale, where larger is better and the spread is 1: the
 * logarithm when every value is positive (TPS and latency vary by factors, not by amounts), the
 * sign flipped for minimization, then standardized.
 */
record TargetTransform(boolean log, double sign, double mean, double sd) {
  static TargetTransform fit(List<Double> values, Direction direction) {
    boolean log = values.stream().allMatch(v -> v > 0);
    double sign = direction == Direction.MAXIMIZE ? 1 : -1;
    double sum = 0;
    for (double v : values) {
      sum += sign * (log ? Math.log(v) : v);
    }
    double mean = sum / values.size();
    double ss = 0;
    for (double v : values) {
      double t = sign * (log ? Math.log(v) : v) - mean;
      ss += t * t;
    }
    double sd = values.size() > 1 ? Math.sqrt(ss / (values.size() - 1)) : 0;
    return new TargetTransform(log, sign, mean, sd > 1e-12 ? sd : 1);
  }

  double forward(double value) {
    return (sign * (log ? Math.log(value) : value) - mean) / sd;
  }

  double inverse(double z) {
    double t = sign * (z * sd + mean);
    return log ? Math.exp(t) : t;
  }
}
