package org.pgknob.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.trial.TrialResult;

/**
 * TPS against average latency for every successful trial, grouped by phase and track, with the
 * Pareto front: the trials no other trial beats on both.
 */
final class ParetoChart {
  private ParetoChart() {}

  /** The chart, or null when no trial succeeded. */
  static ChartModel build(SessionData data) {
    List<TrialResult> ok = data.okTrials();
    if (ok.isEmpty()) {
      return null;
    }
    Map<String, List<ChartModel.Point>> groups = new LinkedHashMap<>();
    for (String key : List.of("baseline", "pgtune", "reload", "restart", "validation")) {
      groups.put(key, new ArrayList<>());
    }
    for (TrialResult t : ok) {
      groups.computeIfAbsent(Tracks.colourKey(t), k -> new ArrayList<>()).add(point(t));
    }
    List<ChartModel.Series> series = new ArrayList<>();
    groups.forEach(
        (key, points) -> {
          if (!points.isEmpty()) {
            series.add(new ChartModel.Series(key, key, ChartModel.Style.POINTS, points));
          }
        });
    List<TrialResult> front = front(ok);
    series.add(
        new ChartModel.Series(
            "Pareto front",
            "front",
            ChartModel.Style.LINE,
            front.stream().map(ParetoChart::point).toList()));
    return new ChartModel(
        "pareto",
        "TPS against average latency, every trial",
        "Up and to the left is better. The line joins the trials no other trial beats on both"
            + " TPS and latency: trial"
            + (front.size() == 1 ? " " : "s ")
            + String.join(", ", front.stream().map(t -> Integer.toString(t.trial())).toList())
            + ".",
        ChartModel.Axis.linear("average latency (ms)"),
        ChartModel.Axis.linear("TPS (transactions/s)"),
        series,
        List.of(),
        List.of());
  }

  private static ChartModel.Point point(TrialResult t) {
    return new ChartModel.Point(Num.r(t.workload().overall().avgMs()), Num.r(t.workload().tps()));
  }

  /** Sorted by latency, each front member has higher TPS than every faster-responding trial. */
  static List<TrialResult> front(List<TrialResult> ok) {
    List<TrialResult> sorted = new ArrayList<>(ok);
    sorted.sort(
        Comparator.comparingDouble((TrialResult t) -> t.workload().overall().avgMs())
            .thenComparing(
                Comparator.comparingDouble((TrialResult t) -> t.workload().tps()).reversed())
            .thenComparingInt(TrialResult::trial));
    List<TrialResult> front = new ArrayList<>();
    double bestTps = Double.NEGATIVE_INFINITY;
    for (TrialResult t : sorted) {
      if (t.workload().tps() > bestTps) {
        front.add(t);
        bestTps = t.workload().tps();
      }
    }
    return front;
  }
}
