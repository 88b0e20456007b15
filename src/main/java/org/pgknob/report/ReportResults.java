package org.pgknob.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.pgknob.runs.Goal;
import org.pgknob.runs.ResultKey;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The report's results table (ReportModel.Results; the console's is {@link ConsoleResultTable}):
 * the session's validated rows from summary.json; before validation, the baseline, PGTune-style and
 * the best trial per track and objective so far, marked unvalidated.
 */
final class ReportResults {
  static final String NOT_VALIDATED =
      "The session has not reached validation yet: these are the best trials so far, measured once"
          + " each, without a ratio to the baseline or an interval.";

  private ReportResults() {}

  static ReportModel.Results build(SessionData data) {
    Summary summary = data.summary();
    if (summary != null && summary.results() != null && !summary.results().isEmpty()) {
      return new ReportModel.Results(true, "", summary.results());
    }
    List<Summary.ResultRow> rows = new ArrayList<>();
    pooled("defaults", data.okPhase(Phase.BASELINE), "baseline").ifPresent(rows::add);
    pooled("pgtune", data.okPhase(Phase.PGTUNE), "PGTune-style").ifPresent(rows::add);
    for (Track track : Tracks.of(data)) {
      List<TrialResult> ok = Tracks.okSearch(data, track);
      ok.stream()
          .max(Comparator.comparingDouble(t -> t.workload().tps()))
          .ifPresent(t -> rows.add(best(track, Goal.TPS, t)));
      ok.stream()
          .min(Comparator.comparingDouble(t -> t.workload().overall().avgMs()))
          .ifPresent(t -> rows.add(best(track, Goal.LATENCY, t)));
    }
    String note =
        summary == null
            ? NOT_VALIDATED.replace("yet:", "yet (summary.json is missing):")
            : NOT_VALIDATED;
    return new ReportModel.Results(false, note, rows);
  }

  private static Optional<Summary.ResultRow> pooled(
      String name, List<TrialResult> trials, String what) {
    if (trials.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Summary.ResultRow(
            name,
            null,
            null,
            trials.get(0).settings(),
            Num.r(Num.mean(trials.stream().map(t -> t.workload().tpsWithCheckpoint()).toList())),
            Num.r(mean(trials, Metric.NOPM)),
            Num.r(mean(trials, Metric.LATENCY_AVG)),
            Num.r(mean(trials, Metric.LATENCY_P95)),
            null,
            null,
            trials.stream().map(TrialResult::trial).toList(),
            Num.f("%s, mean of %d run%s", what, trials.size(), trials.size() == 1 ? "" : "s"),
            null,
            0,
            Num.r(mean(trials, Metric.TPS)),
            null));
  }

  private static Summary.ResultRow best(Track track, Goal objective, TrialResult t) {
    return new Summary.ResultRow(
        new ResultKey(track, objective).name(),
        track,
        objective,
        Map.copyOf(t.settings()),
        Num.r(t.workload().tpsWithCheckpoint()),
        Num.r(Metric.NOPM.of(t)),
        Num.r(Metric.LATENCY_AVG.of(t)),
        Num.r(Metric.LATENCY_P95.of(t)),
        null,
        null,
        List.of(t.trial()),
        "best so far: trial " + t.trial() + ", not validated",
        null,
        0,
        Num.r(Metric.TPS.of(t)),
        null);
  }

  private static double mean(List<TrialResult> trials, Metric m) {
    return Num.mean(trials.stream().map(m::of).toList());
  }
}
