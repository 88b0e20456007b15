package org.pgknob.report;

import java.util.ArrayList;
import java.util.List;
import org.pgknob.trial.TrialResult;

/**
 * Best-so-far TPS and average latency per track against the trial number: whether the search still
 * improves, and by how much beyond the baseline's noise.
 */
final class ConvergenceCharts {
  private ConvergenceCharts() {}

  static List<ChartModel> build(SessionData data, Baseline baseline) {
    List<String> tracks = Tracks.of(data);
    if (tracks.stream().allMatch(tr -> Tracks.okSearch(data, tr).isEmpty())) {
      return List.of();
    }
    return List.of(
        chart(data, baseline, tracks, Metric.TPS, true, "convergence-tps", "TPS (transactions/s)"),
        chart(
            data,
            baseline,
            tracks,
            Metric.LATENCY_AVG,
            false,
            "convergence-latency",
            "average latency (ms)"));
  }

  private static ChartModel chart(
      SessionData data,
      Baseline baseline,
      List<String> tracks,
      Metric metric,
      boolean higherIsBetter,
      String id,
      String yLabel) {
    List<ChartModel.Series> series = new ArrayList<>();
    for (String track : tracks) {
      List<ChartModel.Point> each = new ArrayList<>();
      List<ChartModel.Point> best = new ArrayList<>();
      double bestSoFar = Double.NaN;
      for (TrialResult t : Tracks.okSearch(data, track)) {
        double v = metric.of(t);
        each.add(new ChartModel.Point(t.trial(), Num.r(v)));
        if (Double.isNaN(bestSoFar) || (higherIsBetter ? v > bestSoFar : v < bestSoFar)) {
          bestSoFar = v;
        }
        best.add(new ChartModel.Point(t.trial(), Num.r(bestSoFar)));
      }
      series.add(new ChartModel.Series(track + " best so far", track, ChartModel.Style.STEP, best));
      series.add(new ChartModel.Series(track + " trials", track, ChartModel.Style.POINTS, each));
    }
    return new ChartModel(
        id,
        "Convergence: best " + metric.label + " so far, per track",
        Num.f(
            "Each point is a sweep or Bayesian trial; the line is the best %s found up to that"
                + " trial (%s is better). The grey band is the baseline's noise.",
            metric.label, higherIsBetter ? "higher" : "lower"),
        ChartModel.Axis.linear("trial number"),
        ChartModel.Axis.linear(yLabel),
        series,
        baseline.band(metric).stream().toList(),
        List.of());
  }
}
