package org.pgknob.session;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.PgknobException;
import org.pgknob.ShellWords;
import org.pgknob.optimize.SurrogateKind;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ManagedVersions;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.TargetIdentity;
import org.pgknob.space.PgUnit;
import org.pgknob.trial.TrialResult;

/**
 * What the verdict of a finished session rests on, read from its folder alone (summary.json,
 * session.json, trials.jsonl and the export files), so the console, summary.json, the report and
 * the golden tests decide from the same recorded comparisons.
 *
 * @param runDir the session folder as the user types it in the next commands: runs/&lt;id&gt;
 * @param objective tps or latency: the metric the verdict judges on
 * @param rows the summary's result rows: defaults, pgtune, the picks
 * @param againstPgTune per validated pick, its ratio to the PGTune-style configuration from the
 *     rounds that measured both
 * @param restartSettings the settings whose change needs a restart
 * @param exportedFiles per row name, the export file written for it in the folder
 * @param detectable the smallest gains the session could tell from noise, if the noise is known
 * @param sessionOptions the options that repeat this session's server and workload in a new {@code
 *     tune}: "--workload-cmd '...'", "--target '...'" (empty for the defaults)
 * @param serverOptions the options that name the session's server to apply ({@link
 *     #serverOptions}), empty for the default managed cluster
 * @param comparison whether the session is a {@code pgknob compare} (it searched nothing): its next
 *     step is the same comparison with more rounds, not a tune
 */
public record VerdictFacts(
    String runDir,
    Goal objective,
    List<Summary.ResultRow> rows,
    Map<String, Summary.Ratio> againstPgTune,
    Set<String> restartSettings,
    Map<String, String> exportedFiles,
    Optional<MeasurementReport.DetectableGain> detectable,
    String sessionOptions,
    String serverOptions,
    boolean comparison) {
  /**
   * Settings the PGTune-style configuration may set that only a restart applies: session.json has
   * facts for the search space's knobs only, and PGTune-style sets some outside it.
   */
  static final Set<String> PGTUNE_RESTART_SETTINGS =
      Set.of(
          "shared_buffers",
          "max_connections",
          "wal_buffers",
          "huge_pages",
          "max_worker_processes",
          "io_method");

  /** How a managed cluster describes itself: "managed PostgreSQL 16 cluster at ...". */
  private static final Pattern MANAGED_MAJOR = Pattern.compile("managed PostgreSQL (\\d+) ");

  /** An argument a POSIX shell takes as it is, without quotes. */
  public VerdictFacts {
    rows = List.copyOf(rows);
    againstPgTune = Map.copyOf(againstPgTune);
    restartSettings = Set.copyOf(restartSettings);
    exportedFiles = Map.copyOf(exportedFiles);
  }

  /**
   * The facts of the finished session in {@code folder}.
   *
   * @param runDir how the next commands name the folder, e.g. runs/2026-12-01T06-26-00
   */
  public static VerdictFacts of(SessionFolder folder, String runDir) {
    Summary summary = folder.readSummary();
    SessionState state = folder.readState();
    SessionInputs inputs = SessionInputs.fromMap(state.inputs());
    List<TrialResult> trials = folder.trials().read().trials();
    SessionPlan plan = state.plan();
    Set<String> restart = new LinkedHashSet<>();
    state
        .settings()
        .forEach(
            (name, fact) -> {
              if (fact.needsRestart()) {
                restart.add(name);
              }
            });
    restart.addAll(PGTUNE_RESTART_SETTINGS);
    Map<String, String> exported = new LinkedHashMap<>();
    for (Summary.ResultRow row : summary.results()) {
      if (row.track() != null) {
        var file = folder.bestFile(row.track(), row.objective(), "conf");
        if (Files.isRegularFile(file)) {
          exported.put(row.name(), file.getFileName().toString());
        }
      }
    }
    String server = serverOptions(state.target(), identity(folder));
    double trialSeconds =
        inputs
            .observedTrialSeconds(trials)
            .orElse(inputs.rampupSeconds() + inputs.windowSeconds() + 10.0);
    return new VerdictFacts(
        runDir,
        inputs.objective(),
        summary.results(),
        againstPgTune(summary.results(), trials, inputs.objective()),
        restart,
        exported,
        MeasurementReport.detectableGain(trials, plan, inputs, trialSeconds),
        sessionOptions(inputs, server),
        server,
        Comparison.isComparison(plan));
  }

  /**
   * Each validated pick against the PGTune-style configuration on the session's objective: for TPS
   * the figure its results row recorded ({@link AgainstPgTune}), so the verdict and the row print
   * the same one; else (latency, or a folder recorded before rows carried it) computed by the same
   * rule from the same rounds.
   */
  static Map<String, Summary.Ratio> againstPgTune(
      List<Summary.ResultRow> rows, List<TrialResult> trials, Goal objective) {
    Map<String, Summary.Ratio> out = new LinkedHashMap<>();
    for (Summary.ResultRow row : rows) {
      if (row.name().equals(AgainstPgTune.PGTUNE) || row.name().equals("defaults")) {
        continue;
      }
      Optional<Summary.Ratio> r =
          objective == Goal.TPS && row.tpsRatioToPgtune() != null
              ? Optional.of(row.tpsRatioToPgtune())
              : AgainstPgTune.of(row.name(), trials, objective);
      r.ifPresent(ratio -> out.put(row.name(), ratio));
    }
    return out;
  }

  /**
   * The options a new {@code tune} needs to repeat this session with a larger budget: its server
   * ({@link #serverOptions}), the workload when it is not the default TPROC-C, the ramp-up when not
   * the default, and what it searched and judged when not the defaults (tracks, objective, space,
   * rules, durability, --ram, the PGTune-style row's machine, the surrogate, the validation
   * target). Why the last: a `--objective latency --tracks reload` session's next step was a TPS
   * session of both tracks. Not the seed, --apply or --out: a new session's own.
   */
  /** Whether the server is the user's, not a managed cluster: applying needs a restart command. */
  boolean remote() {
    return serverOptions.startsWith("--target ");
  }

  static String sessionOptions(SessionInputs inputs, String server) {
    List<String> out = new ArrayList<>();
    if (!server.isEmpty()) {
      out.add(server);
    }
    for (String argument : inputs.workload().tuneArguments()) {
      out.add(ShellWords.word(argument));
    }
    if (inputs.workload().timedByPgknob()
        && inputs.rampupSeconds() != SessionInputs.DEFAULT_RAMPUP_SECONDS) {
      out.add("--rampup " + inputs.rampupSeconds() + "s");
    }
    if (!inputs.tracks().equals(SessionInputs.TRACKS)) {
      out.add("--tracks " + String.join(",", inputs.tracks().stream().map(Track::label).toList()));
    }
    if (inputs.objective() != Goal.TPS) {
      out.add("--objective " + inputs.objective().label());
    }
    if (inputs.spaceFile() != null) {
      out.add("--space " + ShellWords.word(inputs.spaceFile()));
    }
    if (inputs.rulesFile() != null) {
      out.add("--rules " + ShellWords.word(inputs.rulesFile()));
    }
    if (inputs.allowDurabilityTradeoff()) {
      out.add("--allow-durability-tradeoff");
    }
    if (inputs.ramBytes() > 0) {
      out.add("--ram " + size(inputs.ramBytes()));
    }
    PgTuneOptions pgtune = inputs.pgtune();
    if (pgtune.storage() != null) {
      out.add("--storage " + pgtune.storage().label());
    }
    if (pgtune.cpus() != null) {
      out.add("--cpus " + pgtune.cpus());
    }
    if (pgtune.connections() != null) {
      out.add("--connections " + pgtune.connections());
    }
    if (inputs.surrogate() != SurrogateKind.GP) {
      out.add("--surrogate " + inputs.surrogate().label());
    }
    if (Math.abs(inputs.validationTarget() - SessionPlan.Validating.DEFAULT_TARGET) > 1e-9) {
      out.add(
          "--validation-target "
              + new BigDecimal(inputs.validationTarget() * 100)
                  .round(new MathContext(6))
                  .stripTrailingZeros()
                  .toPlainString()
              + "%");
    }
    return String.join(" ", out);
  }

  /**
   * The options that name the session's server to another command (tune, apply): {@code --target
   * '...'} for a server of the user's, {@code --pg-version N} for a managed cluster of another
   * major than the default (without it, apply changed the default major's cluster, not the one
   * tuned), empty for the default managed cluster.
   */
  static String serverOptions(String target, TargetIdentity identity) {
    if (!target.startsWith("managed ")) {
      if (identity == null || identity.jdbcUrl() == null) {
        return "--target " + ShellWords.quoted(target);
      }
      // The URL and role as given, not the description "PostgreSQL at db:5432 as pgknob" the
      // session keeps for people: before, the next steps read --target 'PostgreSQL at ...'.
      String options = "--target " + ShellWords.word(identity.jdbcUrl());
      if (identity.user() != null) {
        options += " --user " + ShellWords.word(identity.user());
      }
      if (identity.restartCommand() != null) {
        options += " --restart-command " + ShellWords.quoted(identity.restartCommand());
      }
      return options;
    }
    Matcher m = MANAGED_MAJOR.matcher(target);
    if (m.lookingAt() && Integer.parseInt(m.group(1)) != ManagedVersions.DEFAULT_MAJOR) {
      return "--pg-version " + m.group(1);
    }
    return "";
  }

  /** The server the session's restore file names, or null without one. */
  private static TargetIdentity identity(SessionFolder folder) {
    try {
      return RestoreFile.read(folder.file(SessionFolder.RESTORE_FILE)).identity();
    } catch (PgknobException e) {
      return null;
    }
  }

  /** A size as --ram takes it: 8GB, or its bytes when no unit gives it exactly. */
  private static String size(long bytes) {
    String readable = PgUnit.readableBytes(bytes);
    return PgUnit.parseBytes(readable).orElse(-1) == bytes ? readable : bytes + "B";
  }
}
