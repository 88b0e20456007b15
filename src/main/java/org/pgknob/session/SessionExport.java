package org.pgknob.session;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.pgknob.AtomicFiles;
import org.pgknob.PgknobException;
import org.pgknob.report.BestConfig;
import org.pgknob.report.ConfExporter;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.safety.SafetyRules;
import org.pgknob.server.OriginalSetting;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.SettingValue;
import org.pgknob.trial.Phase;
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
                        summary.results().isEmpty()
                            // "pick one of those" where there is none to pick
                            ? "go on with: pgknob resume " + folder.dir()
                            : "pick one of those, or resume the session to finish it"));
    boolean latency = row.objective() == Goal.LATENCY;
    List<TrialResult> trials = folder.trials().read().trials();
    Map<String, String> originals = originals(folder, state);
    Map<String, String> changed = changesOnly(row.settings(), originals);
    if (changed.isEmpty()) {
      throw noChange(rowName, folder, "");
    }
    ExportRounding rounding =
        ExportRounding.forRow(row.trials(), trials, state.machine(), summary.machine());
    List<BestConfig.Setting> settings = new ArrayList<>();
    SafetyRules rules = SessionRules.forExport(state);
    for (Map.Entry<String, String> e : changed.entrySet()) {
      SettingFact fact = state.settings().get(e.getKey());
      String value = rounding.round(e.getKey(), e.getValue());
      String original = originals.get(e.getKey());
      if (original != null && SettingValue.same(original, value)) {
        continue; // checkpoint_completion_target 0.8971 is the server's 0.9 as a DBA reads it
      }
      settings.add(
          new BestConfig.Setting(
              e.getKey(),
              value,
              fact == null ? "" : fact.bootValue(),
              fact == null ? "" : fact.context(),
              effect(e.getKey(), e.getValue(), trials, summary, latency),
              rules.durabilityRisk(e.getKey(), e.getValue()).orElse("")));
    }
    if (settings.isEmpty()) {
      throw noChange(rowName, folder, " as a DBA writes them (each within 5%)");
    }
    Summary.Ratio ratio = latency ? row.latencyRatio() : row.tpsRatio();
    String verdict =
        ratio == null
            ? row.verdict()
            : ValidationStats.verdict(ratio, latency ? "latency" : "TPS", latency);
    return new BestConfig(
        folder.id(),
        row.name(),
        summary.postgresVersion(),
        verdict,
        settings,
        ExportHeader.lines(state, summary, rounding.rounded()),
        row.diskWarning());
  }

  private static PgknobException noChange(String rowName, SessionFolder folder, String how) {
    return new PgknobException(
        "no change found: the "
            + rowName
            + " pick of session "
            + folder.id()
            + " is the server's own settings"
            + how
            + ", so there is nothing to export",
        "keep the server as it is; a longer --budget or --duration may find a change");
  }

  /**
   * The settings of {@code row} that differ from the server's as the session found them: its
   * recorded original where the session changed the setting, else the built-in default. Rows of
   * older summaries may hold values that change nothing (checkpoint_completion_target 0.9 on a
   * server that runs 0.9).
   */
  static Map<String, String> changesOnly(Map<String, String> row, Map<String, String> originals) {
    Map<String, String> out = new LinkedHashMap<>();
    row.forEach(
        (name, value) -> {
          String original = originals.get(name);
          if (original == null || !SettingValue.same(original, value)) {
            out.put(name, value);
          }
        });
    return out;
  }

  /** Each known setting's value before the session, with its unit. */
  private static Map<String, String> originals(SessionFolder folder, SessionState state) {
    Map<String, String> out = new LinkedHashMap<>();
    state.settings().forEach((name, fact) -> out.put(name, fact.bootValue()));
    Path restore = folder.file(SessionFolder.RESTORE_FILE);
    if (Files.isRegularFile(restore)) {
      try {
        for (OriginalSetting o : RestoreFile.read(restore).snapshot().originals()) {
          out.put(o.name(), SettingValue.withUnit(o.setting(), o.unit()));
        }
      } catch (RuntimeException e) {
        // an unreadable restore file: the defaults recorded in session.json still apply
      }
    }
    return out;
  }

  /**
   * Writes best-&lt;track&gt;-&lt;objective&gt;.conf, .sql and .json for every track/objective row
   * of the summary, and returns the files written.
   */
  public static List<Path> writeAll(SessionFolder folder) {
    List<Path> written = new ArrayList<>();
    for (Summary.ResultRow row : folder.readSummary().results()) {
      if (row.track() == null || row.objective() == null) {
        continue;
      }
      if (row.settings().isEmpty()) {
        continue; // "no change found": nothing to recommend
      }
      BestConfig best;
      try {
        best = best(folder, row.name());
      } catch (PgknobException noChange) {
        continue; // the pick changes nothing against the server's original settings
      }
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
    double baseline = mean(trials, Phase.BASELINE, null, null, latency);
    double atValue = mean(trials, Phase.SWEEP, knob, value, latency);
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
      List<TrialResult> trials, Phase phase, String knob, String value, boolean latency) {
    return trials.stream()
        .filter(t -> t.isOk() && t.phase() == phase)
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
