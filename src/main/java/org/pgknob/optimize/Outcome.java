package org.pgknob.optimize;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What a trial of one configuration gave: named metric values when it ran, or, when it failed
 * (crashed, refused by a constraint, stopped by a guard: the optimizer need not know which), an
 * infeasible configuration with a reason.
 *
 * <p>{@code standardErrors} says, per metric, how far the measured value may be from the
 * configuration's true value (one standard deviation, in the metric's units), as the measurement
 * estimated it (a window's batch means, repeats, drift correction). A metric without one is of
 * unknown precision: a model then estimates a common noise level for it. Optimizers that model
 * noise use it to trust replicated or long measurements more than one short window.
 */
public record Outcome(
    boolean feasible,
    Map<String, Double> metrics,
    Map<String, Double> standardErrors,
    String reason) {
  public Outcome {
    metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
    standardErrors = standardErrors == null ? Map.of() : Map.copyOf(standardErrors);
    reason = reason == null ? "" : reason;
    if (feasible) {
      for (var e : metrics.entrySet()) {
        if (e.getValue() == null || !Double.isFinite(e.getValue())) {
          throw new IllegalArgumentException(
              "metric " + e.getKey() + " must be finite, but got " + e.getValue());
        }
      }
    }
    for (var e : standardErrors.entrySet()) {
      if (!metrics.containsKey(e.getKey())) {
        throw new IllegalArgumentException(
            "a standard error for " + e.getKey() + " needs a value of that metric");
      }
      if (e.getValue() == null || !Double.isFinite(e.getValue()) || e.getValue() < 0) {
        throw new IllegalArgumentException(
            "the standard error of "
                + e.getKey()
                + " must be finite and >= 0, but got "
                + e.getValue());
      }
    }
  }

  public static Outcome ok(Map<String, Double> metrics) {
    return new Outcome(true, metrics, Map.of(), "");
  }

  public static Outcome ok(String metric, double value) {
    return ok(Map.of(metric, value));
  }

  /** A failed trial: the configuration is infeasible, for {@code reason}. */
  public static Outcome failed(String reason) {
    return new Outcome(false, Map.of(), Map.of(), reason);
  }

  /** This outcome with the standard error of one metric's value set. */
  public Outcome withStandardError(String metric, double standardError) {
    Map<String, Double> errors = new HashMap<>(standardErrors);
    errors.put(metric, standardError);
    return new Outcome(feasible, metrics, errors, reason);
  }

  public boolean isOk() {
    return feasible;
  }

  public OptionalDouble value(String metric) {
    Double v = isOk() ? metrics.get(metric) : null;
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }

  /** The standard error of a metric's value, when the measurement estimated one. */
  public OptionalDouble standardError(String metric) {
    Double v = isOk() ? standardErrors.get(metric) : null;
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }
}
