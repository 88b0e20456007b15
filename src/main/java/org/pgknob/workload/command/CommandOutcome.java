package org.pgknob.workload.command;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one run of a command gave: its named numbers when it succeeded, else why it failed and
 * whether it ran out of time. The caller decides what a failure means (a failed trial for {@code
 * pgknob optimize}, a failed window for a session's workload).
 *
 * @param ok true when the command reported a finite value
 * @param timedOut true when the command overran its time and was killed
 * @param metrics the value under the metric's name, then every other finite number it printed
 * @param reason why it failed, or empty
 */
public record CommandOutcome(
    boolean ok, boolean timedOut, Map<String, Double> metrics, String reason) {
  public CommandOutcome {
    metrics = Map.copyOf(metrics);
  }

  static CommandOutcome succeeded(Map<String, Double> metrics) {
    return new CommandOutcome(true, false, metrics, "");
  }

  static CommandOutcome failed(String reason) {
    return new CommandOutcome(false, false, Map.of(), reason);
  }

  static CommandOutcome overran(String reason) {
    return new CommandOutcome(false, true, Map.of(), reason);
  }

  public boolean isOk() {
    return ok;
  }

  public OptionalDouble value(String metric) {
    Double v = metrics.get(metric);
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }
}
