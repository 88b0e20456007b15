package org.pgknob.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.pgknob.server.ResourceSummary;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/** Builds the data behind the report from a loaded session folder; pure, no files written. */
public final class ReportModelBuilder {
  static final String INCOMPLETE_LINE =
      "1 line of trials.jsonl was incomplete (the session was stopped while writing it).";

  private ReportModelBuilder() {}

  public static ReportModel build(SessionData data) {
    Baseline baseline = new Baseline(data);
    ReportModel.Results results = ReportResults.build(data);
    boolean anyOk = !data.okTrials().isEmpty();
    return new ReportModel(
        data.sessionId(),
        notices(data),
        GlanceFacts.build(data, baseline),
        results,
        RunOrderChart.build(data, baseline).orElse(null),
        anyOk ? ConvergenceCharts.build(data, baseline) : List.of(),
        anyOk ? SweepCharts.build(data, baseline) : List.of(),
        ImportanceTable.build(data, baseline),
        anyOk ? TimelineCharts.build(data) : List.of(),
        TailLatencyChart.build(data),
        LatencyDistributionChart.build(data, results).orElse(null),
        anyOk ? MemoryChart.build(data).orElse(null) : null,
        DiskChart.build(data).orElse(null),
        TrialTable.build(data),
        ProfileTables.build(data, results),
        AbsentTexts.of(data));
  }

  private static List<String> notices(SessionData data) {
    List<String> out = new ArrayList<>();
    if (data.incompleteLines() == 1) {
      out.add(INCOMPLETE_LINE);
    }
    if (data.unreadableLines() > 0) {
      out.add(
          Num.f(
              "%d line%s of trials.jsonl could not be read and %s skipped (the file is damaged).",
              data.unreadableLines(),
              data.unreadableLines() == 1 ? "" : "s",
              data.unreadableLines() == 1 ? "was" : "were"));
    }
    out.addAll(data.problems());
    List<Integer> disturbed = trialsWhere(data, t -> t.resources().disturbedByOtherProcesses());
    if (!disturbed.isEmpty()) {
      out.add(
          Num.f(
              "%s ran while other processes on the host used over %.1f%% of its cores: %s may be"
                  + " low. The trial table marks %s.",
              numbered(disturbed),
              100 * ResourceSummary.DISTURBED_FOREIGN_CPU_SHARE,
              disturbed.size() == 1 ? "its numbers" : "their numbers",
              disturbed.size() == 1 ? "it" : "them"));
    }
    List<Integer> repeated = trialsWhere(data, t -> t.disturbedWindow() != null);
    if (!repeated.isEmpty()) {
      out.add(
          Num.f(
              "%s ran %s window again once the host was quiet, after other processes disturbed the"
                  + " first: the trial table says what each first window measured.",
              numbered(repeated), repeated.size() == 1 ? "its" : "their"));
    }
    if (data.trials().isEmpty()) {
      out.add("The session has no finished trial yet: there is nothing to chart.");
    } else if (data.okTrials().isEmpty()) {
      out.add(
          Num.f(
              "No trial finished successfully (%d trial%s, all failed): there is nothing to chart."
                  + " The trial table gives each failure's reason.",
              data.trials().size(), data.trials().size() == 1 ? "" : "s"));
    } else if (data.okPhase(Phase.BASELINE).isEmpty()) {
      out.add("No baseline trial succeeded: charts show no noise band and ratios are unknown.");
    }
    SessionEnd.notice(data).ifPresent(out::add);
    return out;
  }

  private static List<Integer> trialsWhere(SessionData data, Predicate<TrialResult> which) {
    return data.trials().stream().filter(which).map(TrialResult::trial).toList();
  }

  /** "2 trials (7, 12)", "1 trial (5)". */
  private static String numbered(List<Integer> trials) {
    return trials.size()
        + (trials.size() == 1 ? " trial (" : " trials (")
        + trials.stream().map(String::valueOf).collect(Collectors.joining(", "))
        + ")";
  }
}
