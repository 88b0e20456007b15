package org.pgknob.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pgknob.runs.Summary;
import org.pgknob.workload.TransactionProfile;

/**
 * The data behind the report: every table and chart as plain values, built from a session folder by
 * {@link ReportModelBuilder} and drawn by {@link ChartRenderer} and {@link HtmlReport}. Numbers are
 * rounded to what a reader can use, so the model serializes to a stable golden file.
 *
 * @param sessionId the session's id
 * @param notices what the reader must know first: incomplete lines, no successful trial, ...
 * @param glance the session at a glance, in reading order
 * @param results the results table
 * @param runOrder every trial's TPS in run order with the defaults' runs joined (the drift), or
 *     null when no trial succeeded
 * @param convergence best-so-far charts per objective
 * @param sweeps one entry per swept knob
 * @param importance sweep and model rankings
 * @param timelines per-second charts of chosen trials
 * @param tailLatency p95 and p99 latency against TPS, or null when no trial reported latency
 * @param latencyDistribution percentile plot of the defaults against the pick, or null
 * @param memory memory per trial against the prediction and the limit, or null
 * @param disk the server's least free disk space per trial against the reserve, or null
 * @param trials every trial
 * @param profiles per-transaction latency of the baseline and each optimum
 * @param absent what each section says when it has nothing to show
 */
public record ReportModel(
    String sessionId,
    List<String> notices,
    List<Fact> glance,
    Results results,
    ChartModel runOrder,
    List<ChartModel> convergence,
    List<Sweep> sweeps,
    Importance importance,
    List<ChartModel> timelines,
    ChartModel tailLatency,
    ChartModel latencyDistribution,
    ChartModel memory,
    ChartModel disk,
    List<TrialRow> trials,
    List<Profile> profiles,
    Absent absent) {

  /** Every chart of the report, in page order. */
  public List<ChartModel> charts() {
    List<ChartModel> all = new ArrayList<>();
    if (runOrder != null) {
      all.add(runOrder);
    }
    all.addAll(convergence);
    sweeps.forEach(s -> all.addAll(s.charts()));
    all.addAll(timelines);
    for (ChartModel c : java.util.Arrays.asList(tailLatency, latencyDistribution, memory, disk)) {
      if (c != null) {
        all.add(c);
      }
    }
    return all;
  }

  /**
   * What each section says when it has nothing to show ({@link AbsentTexts}).
   *
   * @param trials the results table and the drift chart
   * @param convergence the convergence charts
   * @param sweeps the sweeps' charts
   * @param sweepRanking the sweeps' ranking of the knobs
   * @param model the model's ranking of the knobs
   * @param knobs the knobs each track searched
   * @param timelines the per-second timelines
   * @param profiles the per-transaction latency tables
   * @param trialsTable the table of all trials
   */
  public record Absent(
      String trials,
      String convergence,
      String sweeps,
      String sweepRanking,
      String model,
      String knobs,
      String timelines,
      String profiles,
      String trialsTable) {}

  /** One line of the at-a-glance list. */
  public record Fact(String name, String value) {}

  /**
   * The results table.
   *
   * @param validated true when the rows come from the session's validation (summary.json)
   * @param note why the rows are not validated, or empty
   * @param rows defaults, PGTune-style, then the optima
   */
  public record Results(boolean validated, String note, List<Summary.ResultRow> rows) {}

  /**
   * One swept knob and its figure set.
   *
   * @param knob the setting
   * @param unit its unit as PostgreSQL writes it, or empty
   * @param log whether its axis is logarithmic
   * @param values the values tried, as rendered, in axis order
   * @param charts throughput, latency, CPU, memory and disk against the value
   */
  public record Sweep(
      String knob, String unit, boolean log, List<String> values, List<ChartModel> charts) {}

  /**
   * Knob rankings.
   *
   * @param sweepSource where the sweep ranking comes from: summary.json or the sweep trials
   * @param sweep knobs by the effect their sweep showed
   * @param model knobs by the fitted model's importance (empty before the model is fitted)
   * @param selection each track's knobs, searched or not, and why (empty before a Bayesian phase)
   */
  public record Importance(
      String sweepSource,
      List<Summary.KnobImportance> sweep,
      List<Summary.KnobImportance> model,
      List<Summary.KnobChoice> selection) {
    public Importance {
      selection = selection == null ? List.of() : List.copyOf(selection);
    }
  }

  /**
   * One row of the trial table; metrics are null when the trial did not run to the end.
   *
   * @param status ok, or the failure status (REJECTED, MEMORY_GUARD, DISK_GUARD, CRASHED, TIMEOUT)
   * @param cpuPct user plus system CPU of the server, 100 = one core
   * @param rssMb summed RSS of the server processes, average over the window
   * @param pssMb summed PSS, average over the window
   * @param predictedMemoryMb the safety rules' prediction
   * @param disturbance what other processes took during the window, when over the disturbed line
   * @param ranAgain what the trial's first window, set aside when other processes disturbed it,
   *     measured, when it ran its window again
   */
  public record TrialRow(
      int trial,
      String phase,
      String track,
      String label,
      String status,
      String reason,
      Double tps,
      Double nopm,
      Double latencyAvgMs,
      Double latencyP95Ms,
      Double cpuPct,
      Double rssMb,
      Double pssMb,
      Double predictedMemoryMb,
      Map<String, String> settings,
      @JsonInclude(JsonInclude.Include.NON_NULL) String disturbance,
      @JsonInclude(JsonInclude.Include.NON_NULL) String ranAgain) {}

  /**
   * Per-transaction latency of one configuration, as HammerDB's time profile shows it.
   *
   * @param name defaults, pgtune, reload/tps, ...
   * @param trials the trials pooled
   * @param transactions one row per transaction type, then "all"
   */
  public record Profile(String name, List<Integer> trials, List<TransactionProfile> transactions) {}
}
