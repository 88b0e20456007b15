package org.pgknob.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.pgknob.runs.Track;
import org.pgknob.trial.BestSoFar;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Best-so-far TPS and average latency per track against the trial number: whether the search still
 * improves, and by how much beyond the baseline's noise. The best is {@link BestSoFar}'s, the one
 * the console prints after each trial; validation runs are drawn but do not count.
 */
final class ConvergenceCharts {
  private ConvergenceCharts() {}

  static List<ChartModel> build(SessionData data, Baseline baseline) {
    List<Track> tracks = Tracks.of(data);
    if (tracks.stream().allMatch(tr -> Tracks.okSearch(data, tr).isEmpty())) {
      return List.of();
    }
    List<ChartModel> charts = new ArrayList<>();
    charts.add(
        chart(
            data,
            baseline,
            BestSoFar::tps,
            Metric.TPS,
            true,
            "convergence-tps",
            "window TPS (transactions/s)"));
    // a workload command that reports no latency: no line of zeros
    if (data.okTrials().stream().anyMatch(t -> !Double.isNaN(Metric.LATENCY_AVG.of(t)))) {
      charts.add(
          chart(
              data,
              baseline,
              BestSoFar::averageLatency,
              Metric.LATENCY_AVG,
              false,
              "convergence-latency",
              "average latency (ms)"));
    }
    return charts;
  }

  /**
   * The session's first track, as session.json's inputs list them; else the first that searched (a
   * folder without session.json).
   */
  private static java.util.Optional<Track> firstTrack(SessionData data) {
    JsonNode tracks = data.session().path("inputs").path("tracks");
    if (tracks.isArray() && !tracks.isEmpty()) {
      try {
        return java.util.Optional.of(Track.of(tracks.get(0).asText()));
      } catch (IllegalArgumentException e) {
        // an unknown name: fall back on the trials
      }
    }
    return Tracks.of(data).stream().findFirst();
  }

  private static ChartModel chart(
      SessionData data,
      Baseline baseline,
      Supplier<BestSoFar> definition,
      Metric metric,
      boolean higherIsBetter,
      String id,
      String yLabel) {
    BestSoFar best = definition.get();
    firstTrack(data).ifPresent(best::defaultsCountIn); // as the console counts the baseline
    Map<Track, List<ChartModel.Point>> steps = new LinkedHashMap<>();
    Map<Track, List<ChartModel.Point>> counted = new LinkedHashMap<>();
    for (Track track : Tracks.of(data)) {
      steps.put(track, new ArrayList<>());
      counted.put(track, new ArrayList<>());
    }
    List<ChartModel.Point> validation = new ArrayList<>();
    for (TrialResult t : data.trials()) {
      if (!best.offer(t)) {
        if (t.isOk() && t.phase() == Phase.VALIDATION) {
          validation.add(new ChartModel.Point(t.trial(), Num.r(metric.of(t))));
        }
        continue;
      }
      Track track = best.trackOf(t);
      counted
          .computeIfAbsent(track, k -> new ArrayList<>())
          .add(new ChartModel.Point(t.trial(), Num.r(metric.of(t))));
      double value = best.valueOf(best.best(track).orElseThrow());
      steps
          .computeIfAbsent(track, k -> new ArrayList<>())
          .add(new ChartModel.Point(t.trial(), Num.r(value)));
    }
    List<ChartModel.Series> series = new ArrayList<>();
    steps.forEach(
        (track, points) -> {
          series.add(
              new ChartModel.Series(
                  track + " best so far", track.label(), ChartModel.Style.STEP, points));
          series.add(
              new ChartModel.Series(
                  track + " trials", track.label(), ChartModel.Style.POINTS, counted.get(track)));
        });
    series.add(
        new ChartModel.Series(
            "validation runs (not counted)", "validation", ChartModel.Style.POINTS, validation));
    return AxisFit.fit(
        new ChartModel(
            id,
            "Convergence: best " + metric.label + " so far, per track",
            Num.f(
                "Each point is a trial of the track (baseline, sweep, Bayesian, reference, race"
                    + " and PGTune-style runs); the line is the best %s up to that trial (%s is"
                    + " better), the same best the console prints after each trial. Validation"
                    + " runs re-measure configurations already found and do not count. The grey"
                    + " band is the baseline's noise.",
                metric.label, higherIsBetter ? "higher" : "lower"),
            ChartModel.Axis.linear("trial number"),
            ChartModel.Axis.linear(yLabel),
            series,
            baseline.bandOrPooled(metric).stream().toList(),
            List.of()));
  }
}
