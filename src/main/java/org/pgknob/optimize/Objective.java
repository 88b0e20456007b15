package org.pgknob.optimize;

/**
 * The metric an optimizer improves, by name (e.g. {@code tps}, {@code latency_avg_ms}), and its
 * direction. The optimizer reads that metric from each {@link Outcome}.
 */
public record Objective(String metric, Direction direction) {
  public static Objective maximize(String metric) {
    return new Objective(metric, Direction.MAXIMIZE);
  }

  public static Objective minimize(String metric) {
    return new Objective(metric, Direction.MINIMIZE);
  }
}
