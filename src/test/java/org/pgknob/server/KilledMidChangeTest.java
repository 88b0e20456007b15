package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.cli.Main;
import org.pgknob.testing.SharedPostgres;

/** kill -9 of pgknob while a change is in flight, then {@code pgknob restore FILE}. */
class KilledMidChangeTest {
  @TempDir Path home;

  @AfterEach
  void putBack() throws Exception {
    SharedPostgres.resetSettings();
  }

  @Test
  void restoreAfterKillMinus9MidChangeBringsBackTheOriginalSettings() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    Path autoConf = cluster.dataDir().resolve(AutoConf.FILE_NAME);
    // The restart command waits, so the kill lands after ALTER SYSTEM and before the restart.
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "apply",
                "--target",
                cluster.jdbcUrl("postgres"),
                "--user",
                "postgres",
                "--password-file",
                cluster.passwordFile().toString(),
                "--restart-command",
                "sleep 60; " + cluster.restartShellCommand(),
                "--set",
                "shared_buffers=160MB",
                "--set",
                "work_mem=7MB"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("PGKNOB_HOME", home.toString());
    builder.redirectOutput(home.resolve("child.out").toFile());
    Process child = builder.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(autoConf).contains("shared_buffers")) {
      assertTrue(child.isAlive(), () -> "apply ended early: " + output());
      assertTrue(System.nanoTime() < deadline, "apply never reached ALTER SYSTEM");
      Thread.sleep(50);
    }
    Thread.sleep(300); // inside the restart command now
    List<ProcessHandle> restartCommand = child.descendants().toList();
    child.destroyForcibly(); // SIGKILL: no shutdown hook runs
    child.waitFor();
    restartCommand.forEach(ProcessHandle::destroyForcibly); // as when the whole session is killed
    Path restoreFile = home.resolve("restore").resolve(onlyFile(home.resolve("restore")));
    assertEquals(RestoreFile.CHANGING, RestoreFile.read(restoreFile).state());
    assertEquals("7MB", RemoteServerTest.show("work_mem"), "the change was in flight");

    int exit =
        Main.commandLine()
            .execute(
                "restore",
                restoreFile.toString(),
                "--password-file",
                cluster.passwordFile().toString());

    assertEquals(0, exit);
    assertEquals("128MB", RemoteServerTest.show("shared_buffers"));
    assertEquals("4MB", RemoteServerTest.show("work_mem"));
    assertFalse(Files.readString(autoConf).contains("shared_buffers"));
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs =
            conn.createStatement()
                .executeQuery("SELECT count(*) FROM pg_settings WHERE pending_restart")) {
      rs.next();
      assertEquals(0, rs.getInt(1));
    }
    assertTrue(RestoreFile.read(restoreFile).isRestored());
  }

  private String output() {
    try {
      return Files.readString(home.resolve("child.out"));
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private static String onlyFile(Path dir) throws Exception {
    try (var files = Files.list(dir)) {
      return files
          .filter(p -> p.toString().endsWith(".json"))
          .findFirst()
          .orElseThrow()
          .getFileName()
          .toString();
    }
  }
}
