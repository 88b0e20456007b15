package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/** target, apply and restore through the command line, against the shared cluster by URL. */
class TargetCommandsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @AfterEach
  void putBack() throws Exception {
    run("restore");
    SharedPostgres.resetSettings();
  }

  @Test
  void targetPrintsVersionHostDataFolderSettingsAndPrivileges() {
    assertEquals(0, run("target"), err::toString);
    String text = out.toString();
    assertTrue(text.contains("server:     PostgreSQL 18."), text);
    assertTrue(text.contains("RAM, "), text);
    assertTrue(text.contains("data:       " + SharedPostgres.cluster().dataDir()), text);
    assertTrue(text.contains("superuser postgres"), text);
    assertTrue(
        text.matches(
            "(?s).*\ndisk:       [0-9.]+[KMGT]?B free on "
                + java.util.regex.Pattern.quote(
                    SharedPostgres.cluster().dataDir().toAbsolutePath().toString())
                + "; a configuration's WAL may take up to [0-9.]+[KMGT]?B \\(0.5 x the WAL"
                + " disk's [0-9.]+[KMGT]?B of free space and WAL\\); a trial stops under 1GB"
                + " free\n.*"),
        text);
    assertTrue(text.matches("(?s).*\\d+ settings need a restart:\\s+.*shared_buffers.*"), text);
  }

  @Test
  void applyPrintsWhatChangedAndRestoreBringsTheOriginalBack() throws Exception {
    assertEquals(0, run("apply", "--set", "work_mem=6MB"), err::toString);
    assertTrue(out.toString().contains("work_mem: 4096 kB (4MB) -> 6MB  (reload)"), out.toString());
    assertEquals("6MB", show("work_mem"));
    assertEquals(0, run("apply", "--set", "random_page_cost=1.1"), err::toString);
    assertEquals("6MB", show("work_mem"), "a second apply keeps the first one's settings");

    assertEquals(0, run("restore"), err::toString);
    assertTrue(out.toString().contains("restored 2 setting(s)"), out.toString());
    assertEquals("4MB", show("work_mem"));
    assertEquals("4", show("random_page_cost"));
  }

  /**
   * Restore reads the chosen server's file: for another server it names the files still changed
   * beside it. After apply --pg-version 16 it said "nothing to restore" of the 18 cluster and left
   * the 16 one changed without a word.
   */
  @Test
  void restoreOfAnotherServerNamesTheServersStillChanged() throws Exception {
    assertEquals(0, run("apply", "--set", "work_mem=6MB"), err::toString);
    String hint = "put them back with: pgknob restore --target '";
    assertTrue(out.toString().contains(hint), out.toString());
    out.getBuffer().setLength(0);

    String other = "jdbc:postgresql://127.0.0.1:1/postgres";
    assertEquals(
        0, Cli.run(out, err, "restore", "--target", other, "--user", "postgres"), err::toString);
    String text = out.toString();
    assertTrue(
        text.startsWith("nothing to restore: pgknob apply has not changed this server"), text);
    assertTrue(
        text.contains(
            "still changed: "
                + SharedPostgres.cluster().jdbcUrl("postgres")
                + " (put it back with: pgknob restore /"),
        text);
    assertEquals("6MB", show("work_mem"), "the other server's restore touched nothing");
  }

  /**
   * A session killed with kill -9 leaves its restore file in its run folder: restore without
   * RUN_DIR names it, where it said only "nothing to restore" of apply's file.
   */
  @Test
  void restoreWithoutRunDirNamesASessionsFileStillChanged(@TempDir Path runDir) throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    Path sessionFile = runDir.resolve("restore.json");
    cluster.useRestoreFile(sessionFile);
    cluster.configure(java.util.Map.of("work_mem", "7MB")); // then the session was killed
    try {
      assertEquals(0, run("restore"), err::toString);
      String text = out.toString();
      assertTrue(
          text.contains(
              "still changed: managed cluster "
                  + cluster.clusterDir()
                  + " (put it back with: pgknob restore "
                  + sessionFile.toAbsolutePath().normalize()
                  + ")"),
          text);
      assertEquals("7MB", show("work_mem"), "named, not restored: it is the session's to restore");
    } finally {
      cluster.restoreOriginals();
    }
  }

  /**
   * A session started with --password-file and killed with kill -9: the restore it names as the
   * next step, typed as printed, logs in with the session's password file.
   */
  @Test
  void restoreOfAKilledSessionLogsInWithThePasswordFileItStartedWith(@TempDir Path runDir)
      throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    new StartOptions(cluster.passwordFile().toString(), null, false, 300, 120).write(runDir);
    try (org.pgknob.server.RemoteServer server =
        org.pgknob.server.RemoteServer.open(
            new org.pgknob.server.RemoteServer.Options(
                cluster.jdbcUrl("postgres"), "postgres", cluster.passwordFile(), null, null))) {
      server.useRestoreFile(runDir.resolve("restore.json"));
      server.configure(java.util.Map.of("work_mem", "7MB")); // then the session was killed
    }
    assertEquals("7MB", show("work_mem"));

    int exit = Cli.run(out, err, "restore", runDir.resolve("restore.json").toString());

    assertEquals(0, exit, err::toString);
    assertTrue(
        err.toString()
            .contains("restore: as the session started: --password-file " + cluster.passwordFile()),
        err::toString);
    assertEquals("4MB", show("work_mem"));
  }

  @Test
  void badInputGivesOneLineAndANonZeroExit() throws Exception {
    assertEquals(ExitCodes.ERROR, run("apply", "--set", "no_such_setting=1"));
    assertOneLine("unknown setting 'no_such_setting'");
    assertEquals(ExitCodes.ERROR, run("apply", "--set", "work_mem=-5"));
    assertOneLine("work_mem must be between 64 kB and 2147483647 kB (2.0TB), but got '-5'");
    assertEquals(ExitCodes.ERROR, run("apply", "--set", "shared_buffers=256MB"));
    assertOneLine("no restart command was given");
    assertEquals("4MB", show("work_mem"));
  }

  private void assertOneLine(String expected) {
    String text = err.toString();
    assertTrue(text.startsWith("pgknob: ") && text.contains(expected), text);
    assertEquals(1, text.strip().lines().count(), text);
    err.getBuffer().setLength(0);
  }

  private int run(String... args) {
    ManagedCluster cluster = SharedPostgres.cluster();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--target",
            cluster.jdbcUrl("postgres"),
            "--user",
            "postgres",
            "--password-file",
            cluster.passwordFile().toString()));
    return Cli.run(out, err, all);
  }

  private static String show(String name) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
