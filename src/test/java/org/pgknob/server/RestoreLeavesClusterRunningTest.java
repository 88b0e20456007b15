package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.Cli;

/**
 * A restore after pgknob was killed while the managed cluster was down (between the stop and the
 * start of a restart) leaves the cluster running when it ran before the first change (issue 14,
 * item 5). A cluster of its own: the restart moves it to another free port.
 */
class RestoreLeavesClusterRunningTest {
  static Path clusterDir;

  @BeforeAll
  static void createCluster() throws Exception {
    Path home = PgknobHome.resolve();
    clusterDir = Files.createTempDirectory(Files.createDirectories(home), "restore-running-");
  }

  @AfterAll
  static void deleteCluster() throws Exception {
    cluster().stop();
    PgknobHome.deleteTree(clusterDir);
  }

  @Test
  void restoreStartsAndLeavesRunningAClusterThatRanBeforeTheFirstChange() throws Exception {
    cluster().start();
    StringWriter err = new StringWriter();
    assertEquals(0, run(err, "apply", "--set", "shared_buffers=160MB"), err::toString);
    RestoreFile file = RestoreFile.read(RestoreFile.defaultPath(cluster().identity()));
    assertTrue(file.leaveRunning(), "recorded: it ran before the first change");
    cluster().stop(); // as a kill -9 between the stop and the start of a restart leaves it

    assertEquals(0, run(err, "restore"), err::toString);

    ManagedCluster after = cluster();
    assertTrue(after.isRunning(), "restore leaves it running, as it was");
    try (Connection conn = after.connect("postgres");
        ResultSet rs = conn.createStatement().executeQuery("SHOW shared_buffers")) {
      rs.next();
      assertEquals("128MB", rs.getString(1));
    }
    assertFalse(
        Files.readString(after.dataDir().resolve(AutoConf.FILE_NAME)).contains("shared_buffers"));
  }

  @Test
  void aClusterStoppedBeforeTheFirstChangeIsStoppedAgainAfterARestore() throws Exception {
    ManagedCluster c = cluster();
    c.stop();
    // Opened stopped: a session would start it and stop it at the end; recorded as not running.
    c.start();
    Path restore = clusterDir.resolve("session-restore.json");
    ManagedCluster stoppedBefore = ManagedCluster.open(clusterDir, c.binaries(), 0);
    // This handle found it running; one that found it stopped is what a tune on a stopped cluster
    // has: simulate with a fresh restore file written with runningBefore = false.
    stoppedBefore.useRestoreFile(restore);
    stoppedBefore.configure(java.util.Map.of("work_mem", "5MB"));
    RestoreFile written = RestoreFile.read(restore);
    new RestoreFile(
            written.identity(),
            written.state(),
            written.snapshot(),
            written.applied(),
            written.pending(),
            written.updatedAt(),
            false,
            Map.of())
        .write(restore);
    c.stop();
    StringWriter err = new StringWriter();
    assertEquals(0, run(err, "restore", restore.toString()), err::toString);
    assertFalse(cluster().isRunning(), "left as it was before pgknob: stopped");
  }

  /**
   * A session killed mid-restart and resumed: the resume finds the cluster stopped, starts it, puts
   * the original settings back, makes changes of its own and ends; the cluster ran before the
   * session's first change, so it is left running. (The resume's changes once opened a new restore
   * file that recorded only what the resume had found, a stopped cluster, and its end stopped it.)
   */
  @Test
  void aResumeAfterAKillMidRestartLeavesRunningAClusterThatRanBeforeTheFirstChange()
      throws Exception {
    cluster().start();
    Path restore = clusterDir.resolve("resumed-restore.json");
    ManagedCluster killed = cluster();
    killed.useRestoreFile(restore);
    killed.configure(Map.of("work_mem", "5MB"));
    assertTrue(RestoreFile.read(restore).leaveRunning(), "recorded: it ran before the change");
    cluster().stop(); // as a kill -9 between the stop and the start of a restart leaves it

    ManagedCluster resumed = cluster();
    resumed.useRestoreFile(restore);
    resumed.start();
    resumed.restoreOriginals(); // a resume puts the originals back first
    resumed.configure(Map.of("work_mem", "6MB")); // then runs its trials
    resumed.restoreOriginals();
    resumed.close();
    assertTrue(cluster().isRunning(), "left running, as it was before the session");
  }

  /**
   * A kill between a change's ALTER SYSTEM and its restart leaves the server running its original
   * value with the new one in postgresql.auto.conf. The restore resets it; wal_buffers, whose
   * default -1 is worked out at startup, then reads as waiting for a restart although its value is
   * the original, which the server did not show before pgknob. The restore restarts it once.
   */
  @Test
  void aRestoreAfterAKillBetweenAlterSystemAndItsRestartLeavesNothingWaitingForARestart()
      throws Exception {
    ManagedCluster c = cluster();
    c.start();
    String before = walBuffers()[0];
    Path restore = clusterDir.resolve("killed-before-restart.json");
    ManagedCluster killed = cluster();
    killed.useRestoreFile(restore); // records wal_buffers' original, not pending
    killed.configure(Map.of("wal_buffers", "16MB")); // restarts into 16MB
    try (Connection conn = cluster().connect("postgres")) {
      conn.createStatement().execute("ALTER SYSTEM RESET wal_buffers");
    }
    cluster().restart(); // back to the original value
    try (Connection conn = cluster().connect("postgres")) {
      // the change again, killed before its restart
      conn.createStatement().execute("ALTER SYSTEM SET wal_buffers = '16MB'");
      conn.createStatement().execute("SELECT pg_reload_conf()");
    }
    Thread.sleep(500); // the reload reaches new backends

    ManagedCluster restorer = cluster();
    restorer.useRestoreFile(restore);
    assertEquals("true", walBuffers()[1], "the state a kill before the restart leaves");
    restorer.restoreOriginals();
    assertEquals(before, walBuffers()[0]);
    assertEquals("false", walBuffers()[1], "wal_buffers waits for a restart it does not need");
  }

  /** wal_buffers' setting (its default is worked out from shared_buffers) and pending_restart. */
  private static String[] walBuffers() throws Exception {
    try (Connection conn = cluster().connect("postgres");
        ResultSet rs =
            conn.createStatement()
                .executeQuery(
                    "SELECT setting, pending_restart FROM pg_settings WHERE name = 'wal_buffers'")) {
      rs.next();
      return new String[] {rs.getString(1), String.valueOf(rs.getBoolean(2))};
    }
  }

  private static ManagedCluster cluster() {
    return ManagedCluster.open(clusterDir, PostgresBinaries.ensure(PgknobHome.resolve()), 0);
  }

  private static int run(StringWriter err, String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--cluster-dir";
    all[args.length + 1] = clusterDir.toString();
    return Cli.run(new StringWriter(), err, all);
  }
}
