package org.pgknob.optimize;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * What a trial of one configuration gave: named metric values when it ran ({@link Status#OK}), or a
 * failure status with a reason.
 */
public record Outcome(Status status, Map<String, Double> metrics, String reason) {
  public Outcome {
    metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
    reason = reason == null ? "" : reason;
    if (status == Status.OK) {
      for (var e : metrics.entrySet()) {
        if (e.getValue() == null || !Double.isFinite(e.getValue())) {
          throw new IllegalArgumentException(
              "metric " + e.getKey() + " must be finite, but got " + e.getValue());
        }
      }
    }
  }

  public static Outcome ok(Map<String, Double> metrics) {
    return new Outcome(Status.OK, metrics, "");
  }

  public static Outcome ok(String metric, double value) {
    return ok(Map.of(metric, value));
  }

  public static Outcome failed(Status status, String reason) {
    if (status == Status.OK) {
      throw new IllegalArgumentException("a failed outcome needs a failure status");
    }
    return new Outcome(status, Map.of(), reason);
  }

  public boolean isOk() {
    return status == Status.OK;
  }

  public OptionalDouble value(String metric) {
    Double v = isOk() ? metrics.get(metric) : null;
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }
}
