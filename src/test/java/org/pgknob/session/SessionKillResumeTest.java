package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.cli.Main;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.RestoreFile;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * kill -9 of {@code pgknob tune} while a Bayesian trial of the restart track runs with its
 * configuration applied, then a resume: the session finishes as planned, proposes what the killed
 * process proposed, and leaves the server's original settings.
 */
class SessionKillResumeTest {
  /**
   * 3 baseline runs, 1 reload and 2 restart Bayesian iterations, 3 validation rounds of the
   * defaults, both picks and PGTune-style.
   */
  private static final int BUDGET = 18;

  /** The first restart-track trial: the kill lands while it runs. */
  private static final int KILLED_TRIAL = 5;

  @TempDir Path runs;

  @Test
  void sessionKilledMidTrialResumesFinishesAndPutsTheOriginalSettingsBack() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Map<String, String> settingsBefore = SessionPostgres.settings(cluster);
    String autoConfBefore = SessionPostgres.autoConf(cluster);
    Path childOut = runs.resolve("child.out");
    Process child = startTune(cluster, childOut);
    Path dir;
    List<ProcessHandle> helpers;
    try {
      dir = waitForKilledTrialToRun(cluster, child, childOut);
    } finally {
      helpers = child.descendants().toList();
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no restore
      child.waitFor(30, TimeUnit.SECONDS);
    }
    // A pg_ctl the kill left behind finishes its start or stop on its own, as after a real kill;
    // the server's own processes (a postmaster the child started) stay up.
    long helpersDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (ProcessHandle p : helpers) {
      boolean server = p.info().command().orElse("").endsWith("/postgres");
      while (!server && p.isAlive() && System.nanoTime() < helpersDeadline) {
        Thread.sleep(100);
      }
    }

    SessionFolder folder = SessionFolder.openForResume(dir);
    List<TrialResult> beforeKill = folder.trials().read().trials();
    int inFlight = beforeKill.size() + 1;
    assertTrue(inFlight >= KILLED_TRIAL, "killed in trial " + inFlight);
    assertEquals(SessionState.Status.RUNNING, folder.readState().status(), "nobody marked it");
    ManagedCluster server = SessionPostgres.cluster();
    assertFalse(
        SessionPostgres.alterSystemSettings(server).isEmpty(),
        "the killed trial's settings are still on the server");
    String proposedBeforeKill = changesPrinted(Files.readString(childOut), inFlight);

    server.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));
    StringWriter out = new StringWriter();
    TuningSession resumed =
        TuningSession.resume(
            folder,
            server,
            new ProgressPrinter(new PrintWriter(out, true), false),
            Progress.SILENT,
            Clock.systemUTC());
    assertEquals(
        autoConfBefore,
        SessionPostgres.autoConf(server),
        "resume puts the server back before it reads its settings");
    resumed.run();

    SessionState state = folder.readState();
    assertEquals(SessionState.Status.FINISHED, state.status());
    List<TrialResult> trials = folder.trials().read().trials();
    List<Step> steps = state.plan().steps();
    assertEquals(BUDGET, steps.size());
    // validation leaves out a pick that is the defaults: every trial it planned, at most
    assertTrue(trials.size() <= steps.size() && trials.size() >= 6 + 3 * 2, "every trial once");
    java.util.Set<String> leftOut = ValidationLeftOut.of(state.plan(), trials);
    assertTrue(state.plan().next(trials, leftOut).isEmpty(), "nothing left");
    for (int i = 0; i < trials.size(); i++) {
      assertEquals(i + 1, trials.get(i).trial());
      // a Bayesian slot may hold a reference or race run: the step as filled after the trials
      // before it
      assertEquals(
          state.plan().next(trials.subList(0, i), leftOut).orElseThrow().label(),
          trials.get(i).label());
    }
    assertEquals(
        beforeKill, trials.subList(0, beforeKill.size()), "earlier trials kept as they were");
    assertEquals(
        proposedBeforeKill,
        changes(trials.get(inFlight - 1).settings()),
        "the resumed session proposes what the killed one was running");

    ManagedCluster after = SessionPostgres.cluster();
    assertEquals(autoConfBefore, SessionPostgres.autoConf(after));
    assertEquals(
        java.util.Set.of(),
        SessionPostgres.differences(settingsBefore, SessionPostgres.settings(after)));
    assertEquals(
        RestoreFile.RESTORED, RestoreFile.read(folder.file(SessionFolder.RESTORE_FILE)).state());
  }

  private Process startTune(ManagedCluster cluster, Path childOut) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "tune",
                "--cluster-dir",
                cluster.clusterDir().toString(),
                "--warehouses",
                "1",
                "--rampup",
                "1s",
                "--duration",
                "2s",
                "--budget",
                Integer.toString(BUDGET),
                "--out",
                runs.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(childOut.toFile());
    return builder.start();
  }

  /**
   * Waits until trial {@link #KILLED_TRIAL} or a later one runs with its restart-track settings
   * applied (shared_buffers written by ALTER SYSTEM), and returns the session folder.
   */
  private Path waitForKilledTrialToRun(ManagedCluster cluster, Process child, Path childOut)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
    while (true) {
      assertTrue(child.isAlive(), () -> "tune ended early: " + read(childOut));
      assertTrue(System.nanoTime() < deadline, () -> "never reached trial 5: " + read(childOut));
      Path dir = sessionDir();
      if (dir != null && Files.exists(dir.resolve(SessionFolder.TRIALS_FILE))) {
        long logged = Files.readAllLines(dir.resolve(SessionFolder.TRIALS_FILE)).size();
        boolean proposed = read(childOut).contains("[" + (logged + 1) + "/");
        if (logged >= KILLED_TRIAL - 1 && proposed && restartSettingApplied(cluster)) {
          return dir;
        }
      }
      Thread.sleep(100);
    }
  }

  /** Reads the server through the handle opened before the child: it never starts the server. */
  private static boolean restartSettingApplied(ManagedCluster cluster) {
    try {
      return SessionPostgres.alterSystemSettings(cluster).containsKey("shared_buffers");
    } catch (SQLException e) {
      return false; // restarting right now
    }
  }

  private Path sessionDir() throws IOException {
    try (var dirs = Files.list(runs)) {
      return dirs.filter(Files::isDirectory).findFirst().orElse(null);
    }
  }

  /** The "changes:" line the progress printed for {@code trial}. */
  private static String changesPrinted(String output, int trial) {
    String[] lines = output.split("\n");
    for (int i = 0; i < lines.length - 1; i++) {
      if (lines[i].startsWith("[" + trial + "/")) {
        return lines[i + 1].strip();
      }
    }
    throw new AssertionError("trial " + trial + " never started: " + output);
  }

  /** The settings as the progress prints them. */
  private static String changes(Map<String, String> settings) {
    return "changes: "
        + new TreeMap<>(settings)
            .entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
