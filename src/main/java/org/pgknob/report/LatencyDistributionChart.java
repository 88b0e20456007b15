package org.pgknob.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.LatencySummary;

/**
 * The latency distribution of the defaults against the pick, as HdrHistogram's percentile plot
 * draws it: the x axis counts nines (0%, 90%, 99%, 99.9%, ...), so the tail gets as much room as
 * the median. Each configuration is pooled over the trials of its results row: at each percentile
 * the call-weighted mean of its trials' values.
 */
final class LatencyDistributionChart {
  static final String ID = "latency-distribution";

  private LatencyDistributionChart() {}

  /** The chart, or empty when the defaults have no latency figures. */
  static Optional<ChartModel> build(SessionData data, ReportModel.Results results) {
    Map<Integer, TrialResult> byNumber = new LinkedHashMap<>();
    data.okTrials().forEach(t -> byNumber.put(t.trial(), t));
    Optional<Summary.ResultRow> defaults =
        results.rows().stream().filter(r -> r.name().equals("defaults")).findFirst();
    if (defaults.isEmpty()) {
      return Optional.empty();
    }
    List<ChartModel.Point> base = curve(trialsOf(defaults.get(), byNumber));
    if (base.isEmpty()) {
      return Optional.empty();
    }
    List<ChartModel.Series> series = new ArrayList<>();
    series.add(new ChartModel.Series("defaults", "baseline", ChartModel.Style.LINE, base));
    Optional<Summary.ResultRow> pick = pick(results);
    String pickText = "No configuration other than the defaults has a results row yet.";
    if (pick.isPresent()) {
      List<ChartModel.Point> curve = curve(trialsOf(pick.get(), byNumber));
      if (!curve.isEmpty()) {
        series.add(
            new ChartModel.Series(
                "pick: " + pick.get().name(),
                pick.get().track() == null ? "pgtune" : pick.get().track().label(),
                ChartModel.Style.LINE,
                curve));
        pickText = "The pick is " + pick.get().name() + ", the results row with the best TPS.";
      }
    }
    double maxX =
        series.stream()
            .flatMap(s -> s.points().stream())
            .mapToDouble(ChartModel.Point::x)
            .max()
            .orElse(1);
    return Optional.of(
        AxisFit.fit(
            new ChartModel(
                ID,
                "Latency distribution: the defaults against the pick",
                "Latency at each percentile, pooled over each configuration's trials (the"
                    + " call-weighted mean of each trial's value). The axis adds a nine per step:"
                    + " the right end is the slowest call. "
                    + pickText,
                new ChartModel.Axis("percentile", false, nines(maxX), null, null),
                ChartModel.Axis.linear("latency (ms)"),
                series,
                List.of(),
                List.of())));
  }

  /**
   * The configuration a reader is asked to compare with the defaults: the results row (other than
   * the defaults and PGTune-style) that changes something and has the best TPS, by its validated
   * ratio when it has one.
   */
  static Optional<Summary.ResultRow> pick(ReportModel.Results results) {
    Summary.ResultRow best = null;
    for (Summary.ResultRow r : results.rows()) {
      if (r.name().equals("defaults")
          || r.name().equals("pgtune")
          || r.settings() == null
          || r.settings().isEmpty()) {
        continue;
      }
      if (best == null || BY_TPS.compare(r, best) > 0) {
        best = r;
      }
    }
    return Optional.ofNullable(best);
  }

  /** A validated ratio beats an unvalidated row; then the higher ratio, then the higher TPS. */
  private static final java.util.Comparator<Summary.ResultRow> BY_TPS =
      java.util.Comparator.comparing((Summary.ResultRow r) -> r.tpsRatio() != null)
          .thenComparingDouble(r -> r.tpsRatio() != null ? r.tpsRatio().estimate() : 0)
          .thenComparingDouble(Summary.ResultRow::tps);

  private static List<TrialResult> trialsOf(Summary.ResultRow row, Map<Integer, TrialResult> ok) {
    List<TrialResult> out = new ArrayList<>();
    if (row.trials() != null) {
      for (Integer n : row.trials()) {
        TrialResult t = ok.get(n);
        if (t != null && t.workload().overall().count() > 0) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /**
   * The pooled curve: the percentile levels every trial has, each at its number of nines, with the
   * call-weighted mean latency.
   */
  static List<ChartModel.Point> curve(List<TrialResult> trials) {
    if (trials.isEmpty()) {
      return List.of();
    }
    Map<Double, double[]> sums = new LinkedHashMap<>(); // level -> {weighted sum, weight, trials}
    long calls = 0;
    for (TrialResult t : trials) {
      LatencySummary l = t.workload().overall();
      calls += l.count();
      for (LatencySummary.Percentile p : table(l)) {
        double[] s = sums.computeIfAbsent(p.percentile(), k -> new double[3]);
        s[0] += l.count() * p.ms();
        s[1] += l.count();
        s[2]++;
      }
    }
    double meanCalls = (double) calls / trials.size();
    List<ChartModel.Point> out = new ArrayList<>();
    sums.forEach(
        (level, s) -> {
          if (s[2] == trials.size() && s[1] > 0) {
            out.add(new ChartModel.Point(Num.r(nines(level, meanCalls)), Num.r(s[0] / s[1])));
          }
        });
    out.sort(java.util.Comparator.comparingDouble(ChartModel.Point::x));
    return out;
  }

  /**
   * A trial's percentile table; for a trial recorded before pgknob kept one, the figures it has
   * (p50, p95, p99 and the maximum).
   */
  static List<LatencySummary.Percentile> table(LatencySummary l) {
    if (!l.percentiles().isEmpty()) {
      return l.percentiles();
    }
    if (l.count() == 0 || !(l.p50Ms() > 0)) {
      return List.of();
    }
    return List.of(
        new LatencySummary.Percentile(50, l.p50Ms()),
        new LatencySummary.Percentile(95, l.p95Ms()),
        new LatencySummary.Percentile(99, l.p99Ms()),
        new LatencySummary.Percentile(100, l.maxMs()));
  }

  /**
   * HdrHistogram's x: log10(1 / (1 - p)); the maximum goes where 1 - 1/calls puts the slowest of
   * {@code calls} calls.
   */
  static double nines(double percentile, double calls) {
    if (percentile >= 100) {
      return Math.log10(Math.max(calls, 2));
    }
    return Math.log10(100.0 / (100.0 - percentile));
  }

  /** Tick names for 0 to the last whole nine: 0%, 90%, 99%, 99.9%, ... */
  private static List<String> nines(double maxX) {
    List<String> names = new ArrayList<>();
    int last = Math.max(2, (int) Math.ceil(maxX));
    for (int i = 0; i <= last; i++) {
      names.add(
          switch (i) {
            case 0 -> "0%";
            case 1 -> "90%";
            case 2 -> "99%";
            default -> "99." + "9".repeat(i - 2) + "%";
          });
    }
    return names;
  }
}
