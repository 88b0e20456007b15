package org.pgknob.workload.command;

import java.util.List;
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
 * @param perSecond the value of each second of the command's measured window, when it gave them
 *     ("per_second"), else empty
 */
public record CommandOutcome(
    boolean ok,
    boolean timedOut,
    Map<String, Double> metrics,
    String reason,
    List<Double> perSecond) {
  public CommandOutcome {
    metrics = Map.copyOf(metrics);
    perSecond = perSecond == null ? List.of() : List.copyOf(perSecond);
  }

  static CommandOutcome succeeded(Map<String, Double> metrics, List<Double> perSecond) {
    return new CommandOutcome(true, false, metrics, "", perSecond);
  }

  static CommandOutcome failed(String reason) {
    return new CommandOutcome(false, false, Map.of(), reason, List.of());
  }

  static CommandOutcome overran(String reason) {
    return new CommandOutcome(false, true, Map.of(), reason, List.of());
  }

  public boolean isOk() {
    return ok;
  }

  public OptionalDouble value(String metric) {
    Double v = metrics.get(metric);
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }
}
