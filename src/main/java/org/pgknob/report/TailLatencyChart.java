package org.pgknob.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.pgknob.trial.TrialResult;

/**
 * p95 and p99 latency against TPS for every successful trial, with the front of the trials no other
 * beats on both TPS and p95. Average latency is left out on purpose: in a closed loop without think
 * time it is users / TPS (Little's law), so plotting it against TPS only redraws that hyperbola;
 * the tails are what a configuration can make better or worse at the same TPS.
 */
final class TailLatencyChart {
  static final String ID = "tail-latency";

  private TailLatencyChart() {}

  /** The chart, or null when no successful trial reported its latency percentiles. */
  static ChartModel build(SessionData data) {
    List<TrialResult> ok =
        data.okTrials().stream().filter(t -> t.workload().overall().p95Ms() > 0).toList();
    if (ok.isEmpty()) {
      return null;
    }
    List<TrialResult> front = front(ok);
    List<ChartModel.Series> series =
        List.of(
            new ChartModel.Series(
                "p95 latency", "primary", ChartModel.Style.POINTS, points(ok, Metric.LATENCY_P95)),
            new ChartModel.Series(
                "p99 latency",
                "secondary",
                ChartModel.Style.POINTS,
                points(ok, Metric.LATENCY_P99)),
            new ChartModel.Series(
                "front (p95)", "front", ChartModel.Style.LINE, points(front, Metric.LATENCY_P95)));
    return AxisFit.fit(
        new ChartModel(
            ID,
            "Tail latency against TPS, every trial",
            "Right and down is better. Each trial appears twice, its p95 (blue) and p99 (orange)"
                + " latency at its window TPS; the line joins the trials no other beats on both TPS"
                + " and p95: trial"
                + (front.size() == 1 ? " " : "s ")
                + String.join(", ", front.stream().map(t -> Integer.toString(t.trial())).toList())
                + ". Average latency is not drawn: with no think time it is users / TPS"
                + " (Little's law) and adds nothing to TPS.",
            ChartModel.Axis.linear("window TPS (transactions/s)"),
            ChartModel.Axis.linear("latency (ms)"),
            series,
            List.of(),
            List.of()));
  }

  private static List<ChartModel.Point> points(List<TrialResult> trials, Metric m) {
    List<ChartModel.Point> out = new ArrayList<>();
    for (TrialResult t : trials) {
      out.add(new ChartModel.Point(Num.r(t.workload().tps()), Num.r(m.of(t))));
    }
    return out;
  }

  /** Sorted by TPS, highest first, each front member has a lower p95 than every faster trial. */
  static List<TrialResult> front(List<TrialResult> ok) {
    List<TrialResult> sorted = new ArrayList<>(ok);
    sorted.sort(
        Comparator.comparingDouble((TrialResult t) -> t.workload().tps())
            .reversed()
            .thenComparingDouble(t -> t.workload().overall().p95Ms())
            .thenComparingInt(TrialResult::trial));
    List<TrialResult> front = new ArrayList<>();
    double bestP95 = Double.POSITIVE_INFINITY;
    for (TrialResult t : sorted) {
      if (t.workload().overall().p95Ms() < bestP95) {
        front.add(t);
        bestP95 = t.workload().overall().p95Ms();
      }
    }
    return front;
  }
}
