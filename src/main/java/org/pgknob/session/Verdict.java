package org.pgknob.session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.SafetyRulesFile;

/**
 * What a DBA should do after a session, decided from the validated comparisons the session
 * recorded: apply a pick (which file, its gain against the defaults and against PGTune-style, the
 * restart it needs), apply PGTune-style (as good as anything found), keep the defaults (nothing
 * beats them beyond noise), or, for a session that did not finish, what happened and how to go on.
 * Each ends with next steps written as commands to run.
 *
 * <p>A gain is claimed only when the 95% interval against the defaults excludes 1 on the session's
 * objective. A pick that changes nothing is "no change found", never a recommendation.
 *
 * @param kind which of the five verdicts
 * @param headline one sentence
 * @param details the evidence, one line each
 * @param next commands to run as written, first the one to run now
 * @param file the file to apply, for {@link Kind#APPLY} and {@link Kind#PGTUNE}
 * @param restart whether applying {@code file} needs a restart
 * @param againstDefaults the applied configuration's ratio to the defaults
 * @param againstPgTune the pick's ratio to PGTune-style measured in the same rounds
 */
public record Verdict(
    Kind kind,
    String headline,
    List<String> details,
    List<Summary.NextStep> next,
    String file,
    boolean restart,
    Summary.Ratio againstDefaults,
    Summary.Ratio againstPgTune) {
  public Verdict {
    details = List.copyOf(details);
    next = List.copyOf(next);
  }

  /** The verdicts a session can end with. */
  public enum Kind {
    /** A pick beats the defaults beyond noise, and PGTune-style is not as good. */
    APPLY,
    /** PGTune-style beats the defaults and no pick beats it beyond noise. */
    PGTUNE,
    /** Nothing beats the defaults beyond noise in this budget. */
    NOTHING,
    /** Stopped by Ctrl-C or a signal before the end. */
    STOPPED,
    /** Ended by an error. */
    FAILED;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The verdict of the session in {@code folder} from its files alone: a finished session's from
   * its validated comparisons ({@link VerdictFacts}), an unfinished one's from session.json's state
   * and what summary.json says was restored.
   *
   * @param runDir how the next commands name the folder, e.g. runs/2026-12-01T06-26-00
   */
  public static Verdict of(SessionFolder folder, String runDir) {
    SessionState state = folder.readState();
    if (state.status() == SessionState.Status.FINISHED) {
      return of(VerdictFacts.of(folder, runDir));
    }
    String restored = null;
    if (java.nio.file.Files.exists(folder.file(SessionFolder.SUMMARY_FILE))) {
      Summary.Verdict recorded = folder.readSummary().verdict();
      restored =
          recorded != null
                  && recorded.next().stream().anyMatch(n -> n.command().contains(" restore "))
              ? null
              : folder.readSummary().restored();
    }
    return unfinished(
        state.status() == SessionState.Status.FAILED,
        runDir,
        state.progress().trialsDone(),
        state.plan().totalTrials(),
        state.progress().message(),
        restored);
  }

  /** The verdict of a finished session. */
  public static Verdict of(VerdictFacts facts) {
    boolean latency = facts.objective() == Goal.LATENCY;
    List<String> details = new ArrayList<>();
    List<Summary.ResultRow> picks = new ArrayList<>();
    Summary.ResultRow pgtune =
        facts.rows().stream().filter(r -> r.name().equals("pgtune")).findFirst().orElse(null);
    // Picks that are PGTune-style's configuration, measured as PGTune-style (its runs): one
    // configuration, judged once, as PGTune-style; not a pick "as good as" itself.
    List<String> asPgTune = new ArrayList<>();
    for (Summary.ResultRow row : facts.rows()) {
      if (row.name().equals("defaults") || row.name().equals("pgtune")) {
        continue;
      }
      if (pgtune != null
          && !pgtune.trials().isEmpty()
          && !row.settings().isEmpty()
          && row.trials().equals(pgtune.trials())
          && StepProposer.sameConfiguration(row.settings(), pgtune.settings())) {
        asPgTune.add(row.name());
      } else if (row.settings().isEmpty()) {
        // A pick that changes nothing, or a row with nothing to pick from (no successful trial,
        // a latency the workload does not report): its own words then, not "no change found".
        details.add(
            row.name()
                + (row.verdict() == null
                        || row.verdict().isBlank()
                        || row.verdict().startsWith("no change found")
                    ? ": no change found (its pick is the server's own settings)"
                    : ": " + row.verdict()));
      } else if (ratio(row, latency) != null) {
        picks.add(row);
      }
    }
    Summary.Ratio pgtuneRatio = pgtune == null ? null : ratio(pgtune, latency);
    Optional<Summary.ResultRow> best =
        picks.stream()
            .filter(r -> claims(ratio(r, latency), latency, r.detectableGain()))
            .max(Comparator.comparingDouble(r -> goodness(ratio(r, latency), latency)));
    // Tracks that picked one configuration, measured once, share one line: four identical lines
    // would read as four results.
    Map<PickLine, List<String>> namesByLine = new LinkedHashMap<>();
    for (Summary.ResultRow r : picks) {
      String text =
          describe(ratio(r, latency), latency, r.detectableGain())
              + againstPgTuneText(facts, r, latency);
      namesByLine
          .computeIfAbsent(new PickLine(r.settings(), text), k -> new ArrayList<>())
          .add(r.name());
    }
    namesByLine.forEach(
        (line, names) ->
            details.add(
                String.join(", ", names)
                    + (names.size() > 1 ? " (one configuration)" : "")
                    + " against the defaults: "
                    + line.text()));
    if (pgtune != null) {
      details.add(
          "PGTune-style against the defaults: "
              + (pgtuneRatio == null
                  ? "not validated (the budget left no room)"
                  : describe(pgtuneRatio, latency, pgtune.detectableGain())));
    }
    if (!asPgTune.isEmpty()) {
      details.add(
          String.join(", ", asPgTune)
              + ": PGTune-style's configuration, which the search found too (measured once, as"
              + " PGTune-style)");
    }
    facts
        .detectable()
        .ifPresent(
            g ->
                details.add(
                    "gains under "
                        + MeasurementReport.percent(g.now())
                        + " cannot be told from noise with "
                        // a benchmark command times its own runs: no window to speak of
                        + (g.timedByPgknob() ? g.windowSeconds() + " s windows and " : "")
                        + (facts.comparison()
                            ? g.pairs() + " rounds" // a comparison sets rounds, not a budget
                            : "a budget of "
                                + Budget.parse(g.budget()).describe()
                                + (g.noLongerWindow().isEmpty()
                                    ? ""
                                    : "; " + g.noLongerWindow()))));
    boolean pgtuneGain =
        pgtuneRatio != null && claims(pgtuneRatio, latency, pgtune.detectableGain());
    if (best.isPresent()) {
      Summary.Ratio vsPgTune = facts.againstPgTune().get(best.get().name());
      // The ratio to PGTune-style comes from the same rounds, as many pairs: the pick's own
      // detectable gain stands for its threshold.
      boolean beatsPgTune =
          vsPgTune == null || claims(vsPgTune, latency, best.get().detectableGain());
      if (!pgtuneGain || beatsPgTune) {
        return apply(facts, best.get(), vsPgTune, pgtune, latency, details);
      }
    }
    if (pgtuneGain) {
      return applyPgTune(facts, pgtune, pgtuneRatio, latency, details);
    }
    return nothing(facts, pgtune, pgtuneRatio != null, details);
  }

  private static Verdict apply(
      VerdictFacts facts,
      Summary.ResultRow pick,
      Summary.Ratio vsPgTune,
      Summary.ResultRow pgtune,
      boolean latency,
      List<String> details) {
    Summary.Ratio ratio = ratio(pick, latency);
    boolean restart = needsRestart(pick.settings(), facts);
    String file = facts.exportedFiles().get(pick.name());
    List<Summary.NextStep> next = new ArrayList<>();
    String path;
    if (file != null) {
      path = facts.runDir() + "/" + file;
    } else if (pick.name().startsWith(Comparison.CONFIG_PREFIX)) {
      path = pick.name().substring(Comparison.CONFIG_PREFIX.length()).replaceAll("#\\d+$", "");
      file = path;
    } else {
      path = pick.name().replace('/', '-') + ".conf";
      file = path;
      next.add(
          new Summary.NextStep(
              exportCommand(facts, pick.track().label(), pick.objective(), path),
              "write the pick as postgresql.conf lines"));
    }
    next.add(
        new Summary.NextStep(
            applyCommand(facts, path, restart)
                + SafetyRulesFile.loadDefault()
                    .optInFor(pick.settings())
                    .map(flag -> " " + flag) // apply refuses the value without it
                    .orElse(""),
            applyWhy(restart)));
    if (vsPgTune == null && (pgtune == null || pgtune.tpsRatio() == null)) {
      next.add(
          new Summary.NextStep(
              "./pgknob compare " + facts.runDir(),
              "measure the pick against PGTune-style too, which this session did not validate"));
    }
    String headline =
        "Apply "
            + file
            + ": "
            + shortRatio(ratio, latency, "the defaults")
            + (vsPgTune == null
                ? ", PGTune-style not measured"
                : ", " + shortRatio(vsPgTune, latency, "PGTune-style"))
            + (restart ? "; it needs a restart." : "; a reload applies it.")
            + notDurable(pick.settings())
            + tooMuchWal(pick);
    return new Verdict(Kind.APPLY, headline, details, next, file, restart, ratio, vsPgTune);
  }

  /**
   * " Not durable: synchronous_commit=off (the last commits before a crash may be lost, ...)." for
   * a pick that trades durability (only with the opt-in), so the headline never hides it. The
   * bundled rules name every such value PostgreSQL has.
   */
  private static String notDurable(Map<String, String> settings) {
    SafetyRules rules = SafetyRulesFile.loadDefault();
    List<String> risky = new ArrayList<>();
    settings.forEach(
        (name, value) ->
            rules
                .durabilityRisk(name, value)
                .ifPresent(r -> risky.add(name + "=" + value + " (" + r + ")")));
    return risky.isEmpty() ? "" : " Not durable: " + String.join("; ", risky) + ".";
  }

  /**
   * " Lower max_wal_size first: the WAL it may keep, 8GB (...), exceeds the disk limit 1.2GB
   * (...)." for a configuration measured as given whose WAL the session's disk cannot hold, so the
   * headline that recommends it never hides that applying it as it is can fill the disk.
   */
  private static String tooMuchWal(Summary.ResultRow row) {
    return row.diskWarning() == null
        ? ""
        : " Lower max_wal_size first: " + row.diskWarning() + "; a full WAL disk stops the server.";
  }

  private static Verdict applyPgTune(
      VerdictFacts facts,
      Summary.ResultRow pgtune,
      Summary.Ratio ratio,
      boolean latency,
      List<String> details) {
    boolean restart = needsRestart(pgtune.settings(), facts);
    String file = "pgtune.conf";
    List<Summary.NextStep> next = new ArrayList<>();
    next.add(
        new Summary.NextStep(
            exportCommand(facts, "pgtune", facts.objective(), file),
            "write the PGTune-style configuration as postgresql.conf lines"));
    next.add(new Summary.NextStep(applyCommand(facts, file, restart), applyWhy(restart)));
    String headline =
        "PGTune-style is as good as anything found: apply it ("
            + shortRatio(ratio, latency, "the defaults")
            + (restart ? "; it needs a restart)." : "; a reload applies it).")
            + tooMuchWal(pgtune);
    return new Verdict(Kind.PGTUNE, headline, details, next, file, restart, ratio, null);
  }

  private static Verdict nothing(
      VerdictFacts facts, Summary.ResultRow pgtune, boolean pgtuneValidated, List<String> details) {
    List<Summary.NextStep> next = new ArrayList<>();
    String options = facts.sessionOptions().isEmpty() ? "" : " " + facts.sessionOptions();
    Optional<MeasurementReport.DetectableGain> g = facts.detectable();
    if (facts.comparison()) {
      // The same configurations, workload and windows (compare reads them from this folder), with
      // twice the rounds: it suggested a tune of twice the comparison's trials.
      int rounds = 2 * g.map(MeasurementReport.DetectableGain::pairs).orElse(3);
      next.add(
          new Summary.NextStep(
              "./pgknob compare " + facts.runDir() + " --rounds " + rounds,
              twice(g, "rounds", "more rounds measure smaller gains")));
      return nothingBeyondNoise("comparison", details, next);
    }
    String budget = g.map(d -> doubled(d.budget())).orElse("45m");
    // the same window as this session's, which the gain it promises assumes
    String window =
        g.filter(
                d -> d.timedByPgknob() && d.windowSeconds() != SessionInputs.DEFAULT_WINDOW_SECONDS)
            .map(d -> " --duration " + d.windowSeconds() + "s")
            .orElse("");
    next.add(
        new Summary.NextStep(
            "./pgknob tune" + options + " --budget " + budget + window,
            twice(g, "budget", "a longer session measures smaller gains")));
    g.filter(d -> d.longerWindowSeconds() > 0)
        .ifPresent(
            d ->
                next.add(
                    new Summary.NextStep(
                        "./pgknob tune"
                            + options
                            + " --budget "
                            + d.longerWindowBudget()
                            + " --duration "
                            + d.longerWindowSeconds()
                            + "s",
                        "longer windows in the same time: gains down to "
                            + MeasurementReport.percent(d.longerWindow()))));
    if (pgtune != null && !pgtuneValidated) {
      next.add(
          new Summary.NextStep(
              "./pgknob compare " + facts.runDir(),
              "measure the picks and PGTune-style against the defaults, interleaved"));
    }
    return nothingBeyondNoise("budget", details, next);
  }

  /** "twice the budget: gains down to 4% can be told from noise", or {@code otherwise}. */
  private static String twice(
      Optional<MeasurementReport.DetectableGain> g, String what, String otherwise) {
    return g.map(
            d ->
                "twice the "
                    + what
                    + ": gains down to "
                    + MeasurementReport.percent(d.doubledBudget())
                    + " can be told from noise")
        .orElse(otherwise);
  }

  /** "Nothing beats the defaults beyond noise in this budget: keep the server as it is." */
  private static Verdict nothingBeyondNoise(
      String within, List<String> details, List<Summary.NextStep> next) {
    return new Verdict(
        Kind.NOTHING,
        "Nothing beats the defaults beyond noise in this " + within + ": keep the server as it is.",
        details,
        next,
        null,
        false,
        null,
        null);
  }

  /**
   * The verdict of a session that did not finish.
   *
   * @param failed true for an error, false for Ctrl-C or a signal
   * @param runDir the folder as the next commands name it
   * @param trialsDone trials logged
   * @param trialsPlanned trials in the plan
   * @param why what stopped it
   * @param restored what was put back on the server, or null when restoring failed
   */
  public static Verdict unfinished(
      boolean failed,
      String runDir,
      int trialsDone,
      int trialsPlanned,
      String why,
      String restored) {
    List<String> details = new ArrayList<>();
    List<Summary.NextStep> next = new ArrayList<>();
    if (restored == null) {
      details.add("the original settings could not be put back");
      next.add(
          new Summary.NextStep(
              "./pgknob restore " + runDir + "/" + SessionFolder.RESTORE_FILE,
              "put the server's original settings back first"));
    } else {
      details.add(restored);
    }
    details.add(
        "the "
            + trialsDone
            + " finished trial"
            + (trialsDone == 1 ? " is" : "s are")
            + " kept in "
            + runDir
            + "/"
            + SessionFolder.TRIALS_FILE);
    next.add(
        new Summary.NextStep(
            "./pgknob resume " + runDir,
            failed
                ? "go on from trial " + (trialsDone + 1) + " once the cause is fixed"
                : "go on from trial " + (trialsDone + 1)));
    String headline =
        (failed ? "Failed" : "Stopped")
            + " after "
            + trialsDone
            + " of "
            + trialsPlanned
            + " trials"
            + " ("
            // a state without a message (a session of an older version) still says which
            + (why == null || why.isBlank()
                ? failed ? "an error" : "stopped by Ctrl-C or SIGTERM"
                : why)
            + ")"
            + ": no verdict yet.";
    return new Verdict(
        failed ? Kind.FAILED : Kind.STOPPED, headline, details, next, null, false, null, null);
  }

  /** The form summary.json and the report keep. */
  public Summary.Verdict toSummary() {
    return new Summary.Verdict(
        kind.label(), headline, details, next, file, restart, againstDefaults, againstPgTune);
  }

  /** The console's lines: the headline, the evidence indented, then the commands. */
  public List<String> lines() {
    return lines(toSummary());
  }

  /** The console's lines of a recorded verdict. */
  public static List<String> lines(Summary.Verdict v) {
    List<String> out = new ArrayList<>();
    out.add("== verdict");
    out.add(v.headline());
    v.details().forEach(d -> out.add("  " + d));
    if (!v.next().isEmpty()) {
      out.add("next:");
      v.next().forEach(n -> out.add("  " + n.command() + "    # " + n.why()));
    }
    return out;
  }

  private static Summary.Ratio ratio(Summary.ResultRow row, boolean latency) {
    return row.trials().isEmpty() ? null : latency ? row.latencyRatio() : row.tpsRatio();
  }

  /**
   * Whether {@code r} may be called a gain by the results table's rule ({@link
   * Summary.Ratio#claimsGain}). A pick whose table row read "below what this validation can detect
   * (4%)" was once the headline's "Apply" on its interval alone.
   */
  private static boolean claims(Summary.Ratio r, boolean latency, double detectableGain) {
    return r != null && r.claimsGain(latency, detectableGain);
  }

  /** Larger is better on either objective. */
  private static double goodness(Summary.Ratio r, boolean latency) {
    return latency ? -r.estimate() : r.estimate();
  }

  private static String againstPgTuneText(
      VerdictFacts facts, Summary.ResultRow row, boolean latency) {
    Summary.Ratio r = facts.againstPgTune().get(row.name());
    return r == null ? "" : "; against PGTune-style: " + describe(r, latency, row.detectableGain());
  }

  /** A pick's settings and what its validation says: the picks that share both share a line. */
  private record PickLine(Map<String, String> settings, String text) {}

  /**
   * "1.18x TPS (1.09 to 1.27), gain over 3 pairs", or "below what this validation can detect (4%)"
   * in place of "gain" when it is less than {@code detectableGain}.
   */
  static String describe(Summary.Ratio r, boolean latency, double detectableGain) {
    return ValidationStats.verdict(r, latency ? "latency" : "TPS", latency, detectableGain)
        + (r.pairs() > 0 ? String.format(Locale.ROOT, " over %d pairs", r.pairs()) : "");
  }

  /** "1.18x TPS against the defaults (1.09 to 1.27)" */
  private static String shortRatio(Summary.Ratio r, boolean latency, String against) {
    return String.format(
        Locale.ROOT,
        "%.2fx %s against %s (%.2f to %.2f)",
        r.estimate(),
        latency ? "latency" : "TPS",
        against,
        r.low(),
        r.high());
  }

  private static boolean needsRestart(Map<String, String> settings, VerdictFacts facts) {
    return settings.keySet().stream().anyMatch(facts.restartSettings()::contains);
  }

  private static String exportCommand(
      VerdictFacts facts, String track, Goal objective, String out) {
    return "./pgknob export "
        + facts.runDir()
        + " --track "
        + track
        + " --objective "
        + objective
        + " --out "
        + out;
  }

  private static String applyCommand(VerdictFacts facts, String file, boolean restart) {
    String command = "./pgknob apply --from " + file;
    if (!facts.serverOptions().isEmpty()) {
      command += " " + facts.serverOptions();
    }
    if (facts.remote() && restart && !facts.serverOptions().contains(" --restart-command ")) {
      command += " --restart-command 'the command that restarts that server'";
    }
    return command;
  }

  private static String applyWhy(boolean restart) {
    return restart
        ? "apply it; the server restarts, and pgknob restore puts the old settings back"
        : "apply it with a reload; pgknob restore puts the old settings back";
  }

  /** Twice a budget as --budget takes it: 12m to 24m, 30 trials to 60, 40,2h to 80,4h. */
  static String doubled(String budget) {
    return scaled(budget, 2);
  }

  /** A budget times {@code factor}, written as --budget takes it without spaces. */
  static String scaled(String budget, int factor) {
    Budget b = Budget.parse(budget);
    List<String> parts = new ArrayList<>();
    if (b.trials() != null) {
      parts.add(Integer.toString(factor * b.trials()));
    }
    if (b.wallTime() != null) {
      parts.add(Budget.describe(b.wallTime().multipliedBy(factor)));
    }
    return String.join(",", parts);
  }
}
