package org.pgknob.session;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.pgknob.runs.Summary;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.PgknobHome;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.ServerLock;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * One whole tuning session, recorded once per test JVM and checked by several test classes (a
 * session costs a minute or more, and the suite's time is bounded): {@code pgknob tune} in a child
 * process on {@link SessionPostgres}'s cluster, both tracks, a budget with sweeps, killed with
 * SIGKILL while a Bayesian trial of the restart track runs with its settings applied, then resumed
 * in this JVM to its end. {@link TuningSessionTest} checks the finished session from every side;
 * {@link SessionKillResumeTest} checks the kill and the resume.
 *
 * <p>The workload is the deterministic synthetic one the verdict fixtures were recorded with
 * (fixtures/verdict/synthetic-workload.sh, mode gain: the defaults 1000 TPS, any configuration but
 * PGTune-style 1200, within +-1%), so the session finds picks that change something, exports and
 * validates them, and a busy machine cannot make the defaults' runs differ by half and trip the
 * session's instability stop (the stop reads the workload's own TPS), while every trial still
 * configures, restarts and checkpoints the real server.
 */
final class KilledAndResumedSession {
  /** The smallest two-track budget whose plan has sweeps (see {@link Budget}). */
  static final int BUDGET = 25;

  private static KilledAndResumedSession recorded;
  private static RuntimeException failed;

  /** Every pg_settings row and postgresql.auto.conf before the session. */
  final Map<String, String> settingsBefore;

  final String autoConfBefore;

  /** The trials the killed process logged, and the trial it was running when killed. */
  final List<TrialResult> beforeKill;

  final int inFlight;

  /** The "changes:" line the killed process printed for the trial it was running. */
  final String proposedBeforeKill;

  /** The session's status in session.json right after the kill, before the resume. */
  final SessionState.Status statusAtKill;

  /** postgresql.auto.conf's settings right after the kill: the killed trial's. */
  final Map<String, String> alterSystemAtKill;

  /** What taking the killed process's lock over printed. */
  final String lockTakenOver;

  /** postgresql.auto.conf once the resume has opened the session, before it runs a trial. */
  final String autoConfOnResume;

  final SessionFolder folder;
  final Summary summary;

  /** The resumed session's console. */
  final String console;

  final SessionPlan plan;
  final List<TrialResult> trials;

  /** Every pg_settings row and postgresql.auto.conf once the resumed session has ended. */
  final Map<String, String> settingsAfter;

  final String autoConfAfter;

  final String restoreState;

  private KilledAndResumedSession(Path runs) throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    settingsBefore = SessionPostgres.settings(cluster);
    autoConfBefore = SessionPostgres.autoConf(cluster);
    Path childOut = runs.resolve("child.out");
    Process child = ChildTune.start(cluster, runs, BUDGET, childOut);
    Path dir;
    List<ProcessHandle> helpers;
    try {
      dir = waitForRestartTrialToRun(cluster, runs, child, childOut);
    } finally {
      helpers = child.descendants().toList();
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no restore
      child.waitFor(30, TimeUnit.SECONDS);
    }
    // A pg_ctl or workload command the kill left behind finishes on its own, as after a real
    // kill; the server's own processes (a postmaster the child started) stay up.
    long helpersDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (ProcessHandle p : helpers) {
      boolean server = p.info().command().orElse("").endsWith("/postgres");
      while (!server && p.isAlive() && System.nanoTime() < helpersDeadline) {
        Thread.sleep(100);
      }
    }

    folder = SessionFolder.openForResume(dir);
    beforeKill = folder.trials().read().trials();
    inFlight = beforeKill.size() + 1;
    statusAtKill = folder.readState().status();
    ManagedCluster server = SessionPostgres.cluster();
    alterSystemAtKill = SessionPostgres.alterSystemSettings(server);
    proposedBeforeKill = changesPrinted(Files.readString(childOut), inFlight);

    server.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));
    StringWriter out = new StringWriter();
    StringWriter lockNotes = new StringWriter();
    // As `pgknob resume` does: take over the lock file the killed process left, and empty it at
    // the end, so the next pgknob command on this cluster finds it free.
    try (ServerLock lock =
        ServerLock.acquire(server.identity(), "resume", new PrintWriter(lockNotes, true))) {
      TuningSession resumed =
          TuningSession.resume(
              folder,
              server,
              new ProgressPrinter(new PrintWriter(out, true), false),
              Progress.SILENT,
              Clock.systemUTC());
      autoConfOnResume = SessionPostgres.autoConf(server);
      summary = resumed.run();
    }
    lockTakenOver = lockNotes.toString();
    console = out.toString();
    plan = folder.readState().plan();
    trials = folder.trials().read().trials();

    ManagedCluster after = SessionPostgres.cluster();
    settingsAfter = SessionPostgres.settings(after);
    autoConfAfter = SessionPostgres.autoConf(after);
    restoreState = RestoreFile.read(folder.file(SessionFolder.RESTORE_FILE)).state();
  }

  /**
   * The session, recorded on the first call. A recording that failed fails every later call with
   * the same cause, rather than run the session again.
   */
  static synchronized KilledAndResumedSession get() throws Exception {
    if (failed != null) {
      throw failed;
    }
    if (recorded == null) {
      Path runs =
          Files.createTempDirectory(
              Files.createDirectories(PgknobHome.resolve()), "killed-and-resumed-");
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      PgknobHome.deleteTree(runs);
                    } catch (Exception e) {
                      // best effort at JVM exit
                    }
                  }));
      try {
        recorded = new KilledAndResumedSession(runs);
      } catch (Exception | AssertionError e) {
        failed = new IllegalStateException("recording the shared session failed: " + e, e);
        throw failed;
      }
    }
    return recorded;
  }

  /** The settings as the progress prints them on a trial's "changes:" line. */
  static String changes(Map<String, String> settings) {
    return "changes: "
        + String.join(
            ", ",
            new TreeMap<>(settings)
                .entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
  }

  /**
   * Waits until a Bayesian trial of the restart track runs with its settings applied (the ones the
   * child printed, in postgresql.auto.conf), and returns the session folder.
   */
  private static Path waitForRestartTrialToRun(
      ManagedCluster cluster, Path runs, Process child, Path childOut) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    Path sessions = runs.resolve("sessions");
    while (true) {
      if (!child.isAlive()) {
        throw new AssertionError("tune ended before the kill: " + ChildTune.console(childOut));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "no restart-track Bayesian trial ran: " + ChildTune.console(childOut));
      }
      Path dir = sessionDir(sessions);
      if (dir != null && Files.exists(dir.resolve(SessionFolder.TRIALS_FILE))) {
        int next = Files.readAllLines(dir.resolve(SessionFolder.TRIALS_FILE)).size() + 1;
        String output = ChildTune.console(childOut);
        if (output.contains("[" + next + "/" + BUDGET + "] bayes restart ")) {
          // the "changes:" line may not be written yet: then the next poll reads it
          Set<String> printed =
              printedChanges(output, next)
                  .map(KilledAndResumedSession::settingNames)
                  .orElse(Set.of());
          if (!printed.isEmpty() && printed.equals(appliedSettingNames(cluster))) {
            return dir;
          }
        }
      }
      Thread.sleep(100);
    }
  }

  /** The names on a "changes:" line ("changes: a=1, b=2"); none for the defaults. */
  private static Set<String> settingNames(String changesLine) {
    Set<String> names = new TreeSet<>();
    for (String change : changesLine.substring("changes: ".length()).split(", ")) {
      if (change.contains("=")) {
        names.add(change.substring(0, change.indexOf('=')));
      }
    }
    return names;
  }

  /** Reads the server through the handle opened before the child: it never starts the server. */
  private static Set<String> appliedSettingNames(ManagedCluster cluster) {
    try {
      return SessionPostgres.alterSystemSettings(cluster).keySet();
    } catch (SQLException e) {
      return Set.of(); // restarting right now
    }
  }

  private static Path sessionDir(Path sessions) throws IOException {
    if (!Files.isDirectory(sessions)) {
      return null;
    }
    try (var dirs = Files.list(sessions)) {
      return dirs.filter(Files::isDirectory).findFirst().orElse(null);
    }
  }

  /** The "changes:" line the progress printed for {@code trial}. */
  private static String changesPrinted(String output, int trial) {
    return printedChanges(output, trial)
        .orElseThrow(() -> new AssertionError("trial " + trial + " never started: " + output));
  }

  private static Optional<String> printedChanges(String output, int trial) {
    String[] lines = output.split("\n");
    for (int i = 0; i < lines.length - 1; i++) {
      if (lines[i].startsWith("[" + trial + "/") && lines[i + 1].strip().startsWith("changes: ")) {
        return Optional.of(lines[i + 1].strip());
      }
    }
    return Optional.empty();
  }
}
