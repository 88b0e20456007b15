package org.pgknob.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;

/**
 * The table a session ends with: defaults, the PGTune-style configuration and the optima of each
 * track and objective, with TPS (of the windows alone, and counting the CHECKPOINT after each
 * window: the ratios use the latter), NOPM, average and p95 latency, ratios to the baseline with
 * their 95% intervals, and what each changed. Formatted with a fixed locale so the output is the
 * same everywhere.
 */
public final class ConsoleResultTable {
  private static final List<String> ORDER =
      List.of(
          "defaults", "pgtune", "reload/tps", "reload/latency", "restart/tps", "restart/latency");

  private ConsoleResultTable() {}

  public static String format(Summary summary) {
    StringBuilder b = new StringBuilder();
    Summary.Noise noise = summary.noise();
    if (noise != null) {
      b.append(
          String.format(
              Locale.ROOT,
              "Baseline: %d runs, %.1f window TPS (CV %.1f%%)%s\n",
              noise.runs(),
              noise.tpsMean(),
              100 * noise.tpsCv(),
              // a workload command that reports no latency: no "0.00 ms (CV 0.0%)"
              noise.latencyMeanMs() > 0
                  ? String.format(
                      Locale.ROOT,
                      ", %.2f ms average latency (CV %.1f%%)",
                      noise.latencyMeanMs(),
                      100 * noise.latencyCv())
                  : ""));
      // Three back-to-back runs understate the noise several times over: the figure the session's
      // claims rest on is the run noise pooled from every repeated configuration.
      for (Summary.Measurement m : summary.measurements()) {
        if (m.objective() == Goal.TPS && m.runNoiseCv() > 0) {
          b.append(
              String.format(
                  Locale.ROOT,
                  "Run-to-run noise: %.1f%% TPS, pooled over %d runs of %d configurations (what one"
                      + " run varies by; the baseline's CV rests on its few runs alone)\n",
                  100 * m.runNoiseCv(),
                  m.noiseRuns(),
                  m.noiseConfigurations()));
        }
      }
    }
    List<Summary.ResultRow> rows = new ArrayList<>(summary.results());
    rows.sort(Comparator.comparingInt(ConsoleResultTable::rank));
    List<String[]> cells = new ArrayList<>();
    cells.add(
        new String[] {
          "configuration",
          "window TPS",
          "TPS incl. checkpoint",
          "NOPM",
          "avg ms",
          "p95 ms",
          "TPS ratio (95% CI)",
          "latency ratio (95% CI)",
          "changed"
        });
    for (Summary.ResultRow r : rows) {
      // A row no trial measured (a PGTune-style configuration the budget left out) shows dashes.
      boolean measured = !r.trials().isEmpty();
      cells.add(
          new String[] {
            r.name(),
            measured && r.windowTps() > 0 ? String.format(Locale.ROOT, "%.1f", r.windowTps()) : "-",
            measured ? String.format(Locale.ROOT, "%.1f", r.tps()) : "-",
            measured && r.nopm() != null && r.nopm() > 0
                ? String.format(Locale.ROOT, "%.0f", r.nopm())
                : "-",
            measured && r.latencyAvgMs() > 0
                ? String.format(Locale.ROOT, "%.2f", r.latencyAvgMs())
                : "-",
            measured && r.latencyP95Ms() > 0
                ? String.format(Locale.ROOT, "%.2f", r.latencyP95Ms())
                : "-",
            ratio(r.tpsRatio(), false, r.claimsGain(Goal.TPS)),
            ratio(r.latencyRatio(), true, r.claimsGain(Goal.LATENCY)),
            Integer.toString(r.settings().size())
          });
    }
    b.append(table(cells));
    boolean header = false;
    for (Summary.ResultRow r : rows) {
      if (r.settings().isEmpty() && (r.verdict() == null || r.verdict().isEmpty())) {
        continue;
      }
      if (!header) {
        b.append(String.format(Locale.ROOT, "\nSettings changed from the defaults:\n"));
        header = true;
      }
      b.append("  ").append(r.name());
      if (r.verdict() != null && !r.verdict().isEmpty()) {
        b.append(": ").append(r.verdict());
      }
      b.append("\n");
      if (!r.settings().isEmpty()) {
        b.append("    ").append(settings(r.settings())).append("\n");
      }
      if (r.simplified() != null && !r.simplified().leftAtDefaults().isEmpty()) {
        b.append("    simplified: ").append(r.simplified().note()).append("\n");
      }
      if (r.diskWarning() != null) {
        b.append("    too much WAL for the disk: ").append(r.diskWarning()).append("\n");
      }
    }
    if (!summary.disturbedTrials().isEmpty()) {
      b.append(
          String.format(
              Locale.ROOT,
              "\nOther processes used over an eighth of this host's CPU during trial%s %s: their"
                  + " numbers may be low and the ratios less sure; measure again on a quiet"
                  + " machine with pgknob compare.\n",
              summary.disturbedTrials().size() == 1 ? "" : "s",
              summary.disturbedTrials().stream()
                  .map(String::valueOf)
                  .collect(Collectors.joining(", "))));
    }
    if (!summary.repeatedTrials().isEmpty()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%sTrial%s %s ran %s window again once the host was quiet, after other processes"
                  + " disturbed the first; trials.jsonl keeps what each first window measured.\n",
              summary.disturbedTrials().isEmpty() ? "\n" : "",
              summary.repeatedTrials().size() == 1 ? "" : "s",
              summary.repeatedTrials().stream()
                  .map(String::valueOf)
                  .collect(Collectors.joining(", ")),
              summary.repeatedTrials().size() == 1 ? "its" : "their"));
    }
    return b.toString();
  }

  /** "1.28x (1.20-1.36) +" with + for a claimed gain, - for a claimed loss; "-" when absent. */
  static String ratio(Summary.Ratio r, boolean lowerIsBetter) {
    return ratio(r, lowerIsBetter, true);
  }

  /**
   * {@link #ratio(Summary.Ratio, boolean)}, with no + for a gain the row does not claim (smaller
   * than its validation can detect: {@link Summary.ResultRow#claimsGain}).
   */
  static String ratio(Summary.Ratio r, boolean lowerIsBetter, boolean gainClaimed) {
    if (r == null) {
      return "-";
    }
    String mark = "";
    if (r.excludesOne()) {
      boolean better = lowerIsBetter ? r.high() < 1 : r.low() > 1;
      mark = better ? (gainClaimed ? " +" : "") : " -";
    }
    return String.format(Locale.ROOT, "%.2fx (%.2f-%.2f)%s", r.estimate(), r.low(), r.high(), mark);
  }

  static String settings(Map<String, String> settings) {
    return settings.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static int rank(Summary.ResultRow r) {
    int i = ORDER.indexOf(r.name());
    return i < 0 ? ORDER.size() : i;
  }

  /** Left-aligned first column, right-aligned numbers, two spaces between columns. */
  static String table(List<String[]> cells) {
    int columns = cells.get(0).length;
    int[] width = new int[columns];
    for (String[] row : cells) {
      for (int c = 0; c < columns; c++) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    StringBuilder b = new StringBuilder();
    for (String[] row : cells) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        if (c > 0) {
          line.append("  ");
        }
        String pad = " ".repeat(width[c] - row[c].length());
        line.append(c == 0 ? row[c] + pad : pad + row[c]);
      }
      b.append(line.toString().stripTrailing()).append("\n");
    }
    return b.toString();
  }
}
