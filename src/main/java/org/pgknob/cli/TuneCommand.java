package org.pgknob.cli;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import org.pgknob.optimize.SurrogateKind;
import org.pgknob.safety.SafetyRulesFile;
import org.pgknob.server.Target;
import org.pgknob.server.UnrestoredFiles;
import org.pgknob.session.ApplyAtEnd;
import org.pgknob.session.AutoWindow;
import org.pgknob.session.DryRun;
import org.pgknob.session.SessionInputs;
import org.pgknob.session.SessionRunner;
import org.pgknob.session.TuningSession;
import org.pgknob.space.SearchSpaceFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The main job: a tuning session from baseline to validated, exported results. */
@Command(
    name = "tune",
    mixinStandardHelpOptions = true,
    description = {
      "Tune the server for a workload.",
      "Baseline, one-at-a-time sweeps, Bayesian iterations per track (reload-only, then"
          + " restart-allowed), validation against the baseline and a PGTune-style"
          + " configuration; then report, exports, and the original settings restored.",
      "With no options: the managed PostgreSQL 18, 2 warehouses, about 15 minutes."
    })
public final class TuneCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targetOptions;

  @Mixin ServerWaitOption serverWait;
  @Mixin QuietWaitOption quietWait;

  @Mixin DiskProbeOption diskProbe;

  @Mixin WorkloadOptions workloadOptions;

  @Mixin PgTuneMachineOptions pgtuneOptions;

  @Option(
      names = "--dry-run",
      description =
          "Print the plan (phases, trials, estimated end), the search space and the memory limit,"
              + " then stop: reads the server's settings, changes nothing, builds nothing.")
  boolean dryRun;

  @Option(
      names = "--budget",
      paramLabel = "<40, 2h or 40,2h>",
      defaultValue = "12m",
      description =
          "Trials and/or wall time for the trials: 40, 2h, 40,2h (default: ${DEFAULT-VALUE}).")
  String budget;

  @Option(
      names = "--validation-target",
      paramLabel = "<3%>",
      defaultValue = "3%",
      description =
          "Validation stops once each ratio against the defaults excludes 1 or is within this"
              + " percentage either side, or its share of the budget is spent (default:"
              + " ${DEFAULT-VALUE}).")
  String validationTarget;

  @Option(
      names = "--tracks",
      paramLabel = "reload|restart",
      defaultValue = "reload,restart",
      split = ",",
      description = "Tracks to tune: reload, restart (default: ${DEFAULT-VALUE}).")
  List<String> tracks;

  @Option(
      names = "--objective",
      paramLabel = "tps|latency",
      defaultValue = "tps",
      description =
          "What the Bayesian phase optimizes: tps or latency (default: ${DEFAULT-VALUE}).")
  String objective;

  @Option(
      names = "--space",
      paramLabel = "FILE",
      description = "Search-space YAML (default: the bundled one).")
  Path spaceFile;

  @Option(
      names = "--rules",
      paramLabel = "FILE",
      description = "Safety-rules YAML (default: the bundled one).")
  Path rulesFile;

  @Option(
      names = "--allow-durability-tradeoff",
      description = "Allow synchronous_commit=off (a crash may lose the last commits).")
  boolean allowDurabilityTradeoff;

  @Option(
      names = "--ram",
      paramLabel = "SIZE",
      converter = ByteSize.class,
      description = "Tune for this much RAM (e.g. 8GB), less than the host's.")
  Long ramBytes;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "1",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--surrogate",
      paramLabel = "gp|rf",
      defaultValue = "gp",
      description = "Model of the Bayesian phase: gp (Gaussian process) or rf (random forest).")
  String surrogate;

  @Option(
      names = "--apply",
      paramLabel = "none|best",
      defaultValue = "none",
      description =
          "none: restore the original settings at the end; best: keep the best validated gain.")
  String apply;

  @Option(
      names = "--force",
      description =
          "Start although a restore file of this server was never restored (its settings then"
              + " count as the server's defaults).")
  boolean force;

  @Option(
      names = "--json",
      description =
          "Print the final summary (verdict, results table) as JSON on standard output; progress"
              + " goes to standard error.")
  boolean json;

  @Option(
      names = "--out",
      defaultValue = "runs",
      paramLabel = "DIR",
      description = "Folder for session folders (default: ${DEFAULT-VALUE}).")
  Path runsDir;

  /** "3%" or "3" as 0.03. */
  static double percent(String text) {
    String t = text.trim();
    try {
      return Double.parseDouble(t.endsWith("%") ? t.substring(0, t.length() - 1).trim() : t) / 100;
    } catch (NumberFormatException e) {
      throw new org.pgknob.PgknobException(
          "--validation-target '" + text + "' is not a percentage",
          "give e.g. --validation-target 3%");
    }
  }

  @Override
  public Integer call() {
    // Waits out of range are refused before a folder is created; the session takes them from
    // StartOptions, which records them for a resume.
    serverWait.longest();
    quietWait.longest();
    StartOptions started = StartOptions.of(targetOptions, serverWait, quietWait);
    ApplyAtEnd applyAtEnd = ApplyAtEnd.of(apply);
    SessionInputs inputs =
        new SessionInputs(
            workloadOptions.spec(null),
            workloadOptions.run.rampupSecondsOr(RunOptions.DEFAULT_RAMPUP_SECONDS),
            workloadOptions.run.autoWindow()
                ? RunOptions.DEFAULT_WINDOW_SECONDS
                : workloadOptions.run.windowSecondsOr(RunOptions.DEFAULT_WINDOW_SECONDS),
            budget,
            TrackAndGoal.tracks(tracks),
            TrackAndGoal.goal(objective, "--objective takes tps or latency"),
            spaceFile == null ? null : spaceFile.toAbsolutePath().toString(),
            rulesFile == null ? null : rulesFile.toAbsolutePath().toString(),
            allowDurabilityTradeoff,
            ramBytes == null ? 0 : ramBytes,
            seed,
            SurrogateKind.of(surrogate),
            applyAtEnd,
            pgtuneOptions.toOptions(),
            percent(validationTarget),
            workloadOptions.run.autoWindow()
                ? AutoWindow.startingWith(RunOptions.DEFAULT_WINDOW_SECONDS)
                : null);
    // A budget too small, or a file's own mistakes, are refused before a folder is created or the
    // server touched.
    inputs.trialsAllowed();
    if (spaceFile != null) {
      SearchSpaceFile.load(spaceFile);
    }
    if (rulesFile != null) {
      SafetyRulesFile.load(rulesFile);
    }
    var out = spec.commandLine().getOut();
    if (dryRun) {
      try (org.pgknob.server.Target target = targetOptions.open()) {
        DryRun.lines(inputs, target, Clock.systemUTC()).forEach(out::println);
      }
      out.flush();
      return ExitCodes.OK;
    }
    var err = spec.commandLine().getErr();
    var progressOut = json ? err : out;
    SessionRunner.runInNewFolder(
        json,
        runsDir,
        "session",
        restoreFile -> {
          Target target = targetOptions.open(restoreFile);
          try {
            // Before anything is recorded: another unrestored file means the server does not
            // run with its own settings now.
            UnrestoredFiles.check(target, restoreFile, force, err);
            diskProbe.applyTo(target);
          } catch (RuntimeException e) {
            target.close();
            throw e;
          }
          return target;
        },
        out,
        err,
        (folder, target) ->
            progress ->
                started.begin(
                    TuningSession.create(
                        folder,
                        inputs,
                        target,
                        progress,
                        ConsoleProgress.forConsole(progressOut),
                        Clock.systemUTC()),
                    folder));
    return ExitCodes.OK;
  }
}
