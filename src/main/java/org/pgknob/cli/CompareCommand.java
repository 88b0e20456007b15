package org.pgknob.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pgknob.PgknobException;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.Target;
import org.pgknob.session.Comparison;
import org.pgknob.session.ComparisonCheck;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionInputs;
import org.pgknob.session.SessionPlan;
import org.pgknob.session.SessionRules;
import org.pgknob.session.SessionRunner;
import org.pgknob.session.TuningSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Re-measures configurations against the baseline in interleaved rounds: a finished session's
 * optima and PGTune-style configuration, or postgresql.conf fragments. A comparison is a session of
 * its own (a new folder under --out) that {@code pgknob resume} can continue.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Re-measure configurations against the server's defaults, interleaved (A B A B ...).",
      "With 95%% intervals: the optima and PGTune-style configuration of a session (RUN_DIR),"
          + " or postgresql.conf fragments (--config).",
      "Writes a new session folder with summary and report."
    })
public final class CompareCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targetOptions;

  @Mixin ServerWaitOption serverWait;
  @Mixin QuietWaitOption quietWait;

  @Mixin DiskProbeOption diskProbe;

  @Parameters(
      arity = "0..1",
      paramLabel = "RUN_DIR",
      description = "A finished session whose configurations to re-measure.")
  Path runDir;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "A postgresql.conf fragment to measure; repeat for several.")
  List<Path> configFiles;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      defaultValue = "3",
      description =
          "Rounds of one baseline run and one run of each configuration (at least 2; default:"
              + " ${DEFAULT-VALUE}).")
  int rounds;

  @Mixin WorkloadOptions workloadOptions;

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

  @Override
  public Integer call() {
    // Waits out of range are refused before a folder is created; the session takes them from
    // StartOptions, which records them for a resume.
    serverWait.longest();
    quietWait.longest();
    boolean fromFiles = configFiles != null && !configFiles.isEmpty();
    if (fromFiles == (runDir != null)) {
      throw new PgknobException(
          fromFiles
              ? "give a session folder or --config files, not both"
              : "nothing to compare: no session folder and no --config file",
          "pgknob compare runs/ID, or pgknob compare --config a.conf --config b.conf");
    }
    if (rounds < SessionPlan.MIN_VALIDATION_ROUNDS) {
      throw new PgknobException(
          "--rounds must be at least " + SessionPlan.MIN_VALIDATION_ROUNDS + ", but got " + rounds,
          "give --rounds 3 or more for a useful interval");
    }
    SessionFolder run = runDir == null ? null : SessionFolder.open(runDir);
    if (run != null && onTheRunsServer(run)) {
      // The compared session's server, reached as that session reached it (as resume does).
      StartOptions.fillInFor(
          run.dir(),
          spec,
          "compare: as session " + run.id() + " started",
          targetOptions,
          serverWait,
          quietWait);
    }
    StartOptions started = StartOptions.of(targetOptions, serverWait, quietWait);
    List<Comparison.Candidate> candidates =
        run == null ? Comparison.fromConfFiles(configFiles) : Comparison.fromSession(run);
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    var progressOut = json ? err : out;
    SessionRunner.runInNewFolder(
        json,
        runsDir,
        "comparison",
        restore -> diskProbe.applyTo(open(run, restore)),
        out,
        err,
        (folder, target) -> {
          SessionPlan plan = Comparison.plan(candidates, target.settings(), rounds);
          SessionInputs inputs = inputs(plan, run);
          // Every file against the server and the safety rules before the first trial.
          ComparisonCheck.check(
              candidates, target, SessionRules.of(inputs), inputs.workload().users());
          return progress ->
              started.begin(
                  TuningSession.create(
                      folder,
                      inputs,
                      plan,
                      target,
                      progress,
                      ConsoleProgress.forConsole(progressOut),
                      Clock.systemUTC()),
                  folder);
        });
    return ExitCodes.OK;
  }

  private static SessionInputs originalInputs(SessionFolder run) {
    try {
      return SessionInputs.fromMap(run.readState().inputs());
    } catch (ClassCastException | NullPointerException e) {
      throw new PgknobException(
          "the inputs in " + run.file(SessionFolder.SESSION_FILE) + " are incomplete",
          "write its configurations with pgknob export and compare those with --config");
    }
  }

  /** The workload as given, else as the compared session ran it, else tune's defaults. */
  private SessionInputs inputs(SessionPlan plan, SessionFolder run) {
    Map<String, Object> base = run == null ? Map.of() : run.readState().inputs();
    SessionInputs original = run == null ? null : originalInputs(run);
    RunOptions times = workloadOptions.run;
    return Comparison.inputs(
        plan,
        base,
        new Comparison.Workload(
            workloadOptions.spec(original == null ? null : original.workload()),
            times.rampupSecondsOr(
                original != null ? original.rampupSeconds() : RunOptions.DEFAULT_RAMPUP_SECONDS),
            times.windowSecondsOr(
                original != null ? original.windowSeconds() : RunOptions.DEFAULT_WINDOW_SECONDS)));
  }

  /**
   * The server to measure on: the one the options name, else the compared session's (from its
   * restore file), which must have its original settings back.
   */
  /** Whether the comparison runs on the compared session's server: no option names another. */
  private boolean onTheRunsServer(SessionFolder run) {
    return Files.exists(run.file(SessionFolder.RESTORE_FILE))
        && !targetOptions.namesRemoteServer()
        && targetOptions.clusterDir == null;
  }

  private Target open(SessionFolder run, Path restore) {
    if (run == null || !onTheRunsServer(run)) {
      return targetOptions.open(restore);
    }
    Path runRestore = run.file(SessionFolder.RESTORE_FILE);
    RestoreFile previous = RestoreFile.read(runRestore);
    if (!previous.isRestored()) {
      throw new PgknobException(
          "session " + run.id() + " left its server with changed settings",
          "put them back first with: pgknob restore " + runRestore);
    }
    Target target = targetOptions.openFor(previous.identity());
    if (target instanceof ManagedCluster cluster) {
      cluster.start();
    }
    target.useRestoreFile(restore);
    return target;
  }
}
