package org.pgknob.session;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.pgknob.AtomicFiles;
import org.pgknob.PgknobException;
import org.pgknob.report.BestConfig;
import org.pgknob.report.ConfExporter;
import org.pgknob.report.SettingValue;
import org.pgknob.report.Summary;
import org.pgknob.trial.TrialResult;

/**
 * Builds the exports of a session from its folder alone: the result row from summary.json, each
 * setting's default and context from session.json, and its measured effect from the sweeps in
 * trials.jsonl (else the summary's sweep or model ranking).
 */
public final class SessionExport {
  private SessionExport() {}

  /**
   * The configuration of result row {@code rowName} (e.g. restart/tps, pgtune) ready to export.
   *
   * @throws PgknobException when the session has no such validated row
   */
  public static BestConfig best(SessionFolder folder, String rowName) {
    Summary summary = folder.readSummary();
    SessionState state = folder.readState();
    Summary.ResultRow row =
        summary.results().stream()
            .filter(r -> r.name().equals(rowName))
            .findFirst()
            .orElseThrow(
                () ->
                    new PgknobException(
                        "session "
                            + folder.id()
                            + " has no "
                            + rowName
                            + " result"
                            + available(summary),
                        "pick one of those, or resume the session to finish it"));
    boolean latency = "latency".equals(row.objective());
    List<TrialResult> trials = folder.trials().read().trials();
    List<BestConfig.Setting> settings = new ArrayList<>();
    for (Map.Entry<String, String> e : row.settings().entrySet()) {
      SettingFact fact = state.settings().get(e.getKey());
      settings.add(
          new BestConfig.Setting(
              e.getKey(),
              e.getValue(),
              fact == null ? "" : fact.bootValue(),
              fact == null ? "" : fact.context(),
              effect(e.getKey(), e.getValue(), trials, summary, latency)));
    }
    Summary.Ratio ratio = latency ? row.latencyRatio() : row.tpsRatio();
    String verdict =
        ratio == null
            ? row.verdict()
            : ValidationStats.verdict(ratio, latency ? "latency" : "TPS", latency);
    return new BestConfig(folder.id(), row.name(), summary.postgresVersion(), verdict, settings);
  }

  /**
   * Writes best-&lt;track&gt;-&lt;objective&gt;.conf, .sql and .json for every track/objective row
   * of the summary, and returns the files written.
   */
  public static List<Path> writeAll(SessionFolder folder) {
    List<Path> written = new ArrayList<>();
    for (Summary.ResultRow row : folder.readSummary().results()) {
      if (row.track() == null
          || row.track().isEmpty()
          || row.objective() == null
          || row.objective().isEmpty()) {
        continue;
      }
      BestConfig best = best(folder, row.name());
      for (ConfExporter.Format f : ConfExporter.Format.values()) {
        Path file = folder.bestFile(row.track(), row.objective(), f.extension());
        AtomicFiles.write(file, ConfExporter.write(best, f).getBytes(StandardCharsets.UTF_8));
        written.add(file);
      }
    }
    return written;
  }

  private static String available(Summary summary) {
    List<String> names = summary.results().stream().map(Summary.ResultRow::name).toList();
    return names.isEmpty()
        ? " (it has no results yet)"
        : " (it has: " + String.join(", ", names) + ")";
  }

  /**
   * What the session measured about {@code knob} at {@code value}: its sweep trial at that value
   * against the baseline mean (with the multiple of the noise), else the summary's rankings.
   */
  static String effect(
      String knob, String value, List<TrialResult> trials, Summary summary, boolean latency) {
    double baseline = mean(trials, "baseline", null, null, latency);
    double atValue = mean(trials, "sweep", knob, value, latency);
    if (baseline > 0 && atValue > 0) {
      double change = atValue / baseline - 1;
      String text =
          String.format(
              Locale.ROOT,
              "sweep: %+.1f%% %s at this value",
              100 * change,
              latency ? "latency" : "TPS");
      double cv =
          summary.noise() == null
              ? 0
              : latency ? summary.noise().latencyCv() : summary.noise().tpsCv();
      if (cv > 0) {
        text += String.format(Locale.ROOT, " (%.1fx the noise)", Math.abs(change) / cv);
      }
      return text;
    }
    Optional<Summary.KnobImportance> swept = find(summary.sweepRanking(), knob);
    if (swept.isPresent()) {
      return "sweep: " + swept.get().verdict();
    }
    Optional<Summary.KnobImportance> model = find(summary.modelRanking(), knob);
    if (model.isPresent()) {
      return String.format(
          Locale.ROOT,
          "model importance %.2f: %s",
          model.get().importance(),
          model.get().verdict());
    }
    return "";
  }

  private static Optional<Summary.KnobImportance> find(
      List<Summary.KnobImportance> ranking, String knob) {
    return ranking == null
        ? Optional.empty()
        : ranking.stream().filter(k -> k.knob().equals(knob)).findFirst();
  }

  /** Mean TPS (or average latency) of the phase's successful trials, optionally at knob=value. */
  private static double mean(
      List<TrialResult> trials, String phase, String knob, String value, boolean latency) {
    return trials.stream()
        .filter(t -> t.isOk() && phase.equals(t.phase()))
        .filter(
            t ->
                knob == null
                    || (t.settings().containsKey(knob)
                        && SettingValue.same(t.settings().get(knob), value)))
        .mapToDouble(t -> latency ? t.workload().overall().avgMs() : t.workload().tps())
        .average()
        .orElse(0);
  }
}
