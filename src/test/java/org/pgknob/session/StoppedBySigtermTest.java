package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.ServerLock;
import org.pgknob.server.TargetIdentity;
import org.pgknob.testing.SessionPostgres;

/**
 * {@code pgknob tune} in a child process, stopped by SIGTERM (as Ctrl-C or a service manager stops
 * it) while a Bayesian trial runs with its settings applied: the server is left with its original
 * settings, postgresql.auto.conf as before, the restore file marked restored, the server's lock
 * released. That no change can follow the hook's restore while the session's thread runs on (it did
 * in a noise-bench session, whose hook took seconds to write the report) is {@code
 * ManagedConfigureTest.afterTheShutdownHooksRestoreNoLaterChangeReachesTheServer}; that the thread
 * logs and prints nothing more, not even the trial the restore cut short, is {@link
 * StoppedSessionLogsNothingMoreTest}.
 */
class StoppedBySigtermTest {
  @TempDir Path dir;

  @Test
  void aSessionStoppedBySigtermLeavesTheServerWithItsOriginalSettings() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Map<String, String> settingsBefore = SessionPostgres.settings(cluster);
    String autoConfBefore = SessionPostgres.autoConf(cluster);
    Path childOut = dir.resolve("child.out");
    Process child = ChildTune.start(cluster, dir, KilledAndResumedSession.BUDGET, childOut);
    String console =
        sigtermOnceRestored(
            child, childOut, () -> waitForAppliedSettings(cluster, child, childOut));
    Path session;
    try (var dirs = Files.list(ChildTune.sessions(dir))) {
      session = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    assertEquals(
        RestoreFile.RESTORED,
        RestoreFile.read(session.resolve(SessionFolder.RESTORE_FILE)).state(),
        console);
    ManagedCluster after = SessionPostgres.cluster();
    assertEquals(Map.of(), SessionPostgres.alterSystemSettings(after), console);
    assertEquals(autoConfBefore, SessionPostgres.autoConf(after));
    assertEquals(
        java.util.Set.of(),
        SessionPostgres.differences(settingsBefore, SessionPostgres.settings(after)),
        console);
    // released once the settings were back, not left naming a holder that stopped cleanly
    assertEquals(
        "",
        Files.readString(ServerLock.lockFile(TargetIdentity.managed(cluster.clusterDir()))),
        console);
    // the password file of the workload command the signal cut short is gone with the JVM
    try (var files = Files.list(ChildTune.tempFolder(dir))) {
      assertEquals(
          List.of(),
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.startsWith("pgknob-pgpass-"))
              .toList(),
          console);
    }
  }

  /**
   * A session that found the managed cluster stopped and started it stops it at its end; stopped by
   * SIGTERM, it stops it too once the settings are back, rather than leave a server running that
   * nobody started.
   */
  @Test
  void aManagedClusterTheSessionStartedIsStoppedAgainAfterSigterm() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    String autoConfBefore = SessionPostgres.autoConf(cluster);
    cluster.stop();
    Path childOut = dir.resolve("child.out");
    Process child = ChildTune.start(cluster, dir, KilledAndResumedSession.BUDGET, childOut);
    String console =
        sigtermOnceRestored(child, childOut, () -> waitForABayesianTrial(child, childOut));
    assertTrue(!ManagedCluster.openExisting(cluster.clusterDir(), 0).isRunning(), console);
    ManagedCluster after = SessionPostgres.cluster(); // started again for the checks
    assertEquals(Map.of(), SessionPostgres.alterSystemSettings(after), console);
    assertEquals(autoConfBefore, SessionPostgres.autoConf(after));
  }

  /**
   * SIGTERM while the TPROC-C schema loads, before the session exists: the child says it stopped
   * and nothing else, removes its empty folder and exits as a stopped process. It printed "pgknob:
   * building the TPROC-C database failed: ... (check ... free disk space)" after the stop (the stop
   * cut the load's connections), and, when it exited first, left the empty folder.
   */
  @Test
  void aStopDuringTheSchemaLoadSaysItStoppedAndLeavesNoFolder() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Path childOut = dir.resolve("child.out");
    Path sessions = ChildTune.sessions(dir);
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                org.pgknob.cli.Main.class.getName(),
                "tune",
                "--cluster-dir",
                cluster.clusterDir().toString(),
                "--warehouses",
                "6", // a load of a few seconds, built by no other test
                "--tracks",
                "reload",
                "--budget",
                "16",
                "--out",
                sessions.toString())
            .redirectErrorStream(true)
            .redirectOutput(childOut.toFile())
            .start();
    String console;
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!ChildTune.console(childOut).contains("load 6 warehouses ...")) {
        assertTrue(
            child.isAlive(), () -> "ended before the signal: " + ChildTune.console(childOut));
        assertTrue(System.nanoTime() < deadline, () -> ChildTune.console(childOut));
        Thread.sleep(20);
      }
      child.destroy();
      assertTrue(child.waitFor(120, TimeUnit.SECONDS), () -> ChildTune.console(childOut));
      console = ChildTune.console(childOut);
      assertEquals(143, child.exitValue(), console); // 128 + SIGTERM: stopped, not failed
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
      try (var conn = SessionPostgres.cluster().connect("postgres");
          var st = conn.createStatement()) {
        st.execute("DROP DATABASE IF EXISTS tprocc_w6 WITH (FORCE)");
        st.execute("DROP DATABASE IF EXISTS tprocc_w6_pristine WITH (FORCE)");
      }
    }
    assertTrue(console.contains("pgknob: stopped; restored the original settings of "), console);
    assertTrue(console.contains("nothing was recorded: "), console);
    assertTrue(!console.contains("failed"), console);
    try (var dirs = Files.list(sessions)) {
      assertEquals(List.of(), dirs.toList(), console);
    }
  }

  /** Something to wait for before the signal. */
  @FunctionalInterface
  private interface Wait {
    void until() throws Exception;
  }

  /**
   * Sends SIGTERM (as Ctrl-C or a service manager does: the shutdown hooks run) once {@code wait}
   * returns, waits for the child to exit and checks that it said it restored the server.
   *
   * @return the child's console
   */
  private static String sigtermOnceRestored(Process child, Path childOut, Wait wait)
      throws Exception {
    try {
      wait.until();
      child.destroy();
      assertTrue(child.waitFor(120, TimeUnit.SECONDS), () -> ChildTune.console(childOut));
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
    String console = ChildTune.console(childOut);
    assertTrue(console.contains("pgknob: stopped; restored the original settings of "), console);
    return console;
  }

  /** Waits until the console says a Bayesian trial began. */
  private static void waitForABayesianTrial(Process child, Path childOut) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
    while (!ChildTune.console(childOut).contains("] bayes ")) {
      assertTrue(child.isAlive(), () -> "ended before the signal: " + ChildTune.console(childOut));
      assertTrue(System.nanoTime() < deadline, () -> ChildTune.console(childOut));
      Thread.sleep(100);
    }
  }

  /** Waits until a trial runs with settings of its own in postgresql.auto.conf. */
  private static void waitForAppliedSettings(ManagedCluster cluster, Process child, Path childOut)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
    while (true) {
      if (!child.isAlive()) {
        throw new AssertionError("tune ended before the signal: " + ChildTune.console(childOut));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "no trial ran with settings applied: " + ChildTune.console(childOut));
      }
      // a few trials in: the Bayesian phase, whose settings differ from trial to trial
      if (ChildTune.console(childOut).contains("] bayes ") && !applied(cluster).isEmpty()) {
        return;
      }
      Thread.sleep(100);
    }
  }

  private static Map<String, String> applied(ManagedCluster cluster) {
    try {
      return SessionPostgres.alterSystemSettings(cluster);
    } catch (SQLException e) {
      return Map.of(); // restarting right now
    }
  }
}
