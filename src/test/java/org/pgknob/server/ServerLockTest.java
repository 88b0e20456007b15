package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.cli.Main;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/**
 * One pgknob per server (issue 14, item 4): a real second pgknob process, on the same home (the
 * lock file) and on another home (the server's advisory lock, as from another host), is refused
 * with the holder's pid and command; after a kill -9 the stale lock is taken over with a line.
 */
class ServerLockTest {
  @TempDir Path dir;
  private final List<Process> children = new ArrayList<>();

  @AfterEach
  void putBack() throws Exception {
    for (Process p : children) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor();
    }
    SharedPostgres.resetSettings();
  }

  @Test
  void aSecondPgknobIsRefusedWithTheHolderAndAStaleLockIsTakenOver() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    Path autoConf = cluster.dataDir().resolve(AutoConf.FILE_NAME);
    // The restart command waits, so the first pgknob holds the server for a minute.
    Process holder =
        child(
            PgknobHome.resolve(),
            "apply",
            "--restart-command",
            "sleep 60; " + cluster.restartShellCommand(),
            "--set",
            "shared_buffers=160MB");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(autoConf).contains("shared_buffers")) {
      assertTrue(holder.isAlive(), () -> "apply ended early: " + output("child"));
      assertTrue(System.nanoTime() < deadline, "apply never reached ALTER SYSTEM");
      Thread.sleep(50);
    }
    String pid = "pid " + holder.pid();

    // Same home: the lock file refuses, naming the holder; nothing changes.
    StringWriter err = new StringWriter();
    assertEquals(1, run(err, "apply", "--set", "work_mem=5MB"));
    assertTrue(err.toString().contains("is in use by another pgknob: " + pid), err.toString());
    assertTrue(err.toString().contains("pgknob apply, since "), err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());
    assertEquals("4MB", RemoteServerTest.show("work_mem"));
    err = new StringWriter();
    assertEquals(1, run(err, "restore"));
    assertTrue(err.toString().contains(pid), err.toString());

    // Another home (as another host): the server's advisory lock refuses, naming the holder.
    Process other = child(dir.resolve("other-home"), "apply", "--set", "work_mem=5MB");
    assertTrue(other.waitFor(60, TimeUnit.SECONDS));
    assertEquals(1, other.exitValue(), output("other-home"));
    assertTrue(
        output("other-home").contains("is in use by another pgknob: pgknob " + pid),
        output("other-home"));

    // kill -9: both locks go with the process; the next pgknob says it takes the lock over.
    List<ProcessHandle> restartCommand = holder.descendants().toList();
    holder.destroyForcibly();
    holder.waitFor();
    restartCommand.forEach(ProcessHandle::destroyForcibly);
    err = new StringWriter();
    assertEquals(0, run(err, "restore"), err::toString);
    assertTrue(
        err.toString().contains("took over the lock of " + pid)
            && err.toString().contains("which is no longer running"),
        err.toString());
    assertEquals("128MB", RemoteServerTest.show("shared_buffers"));
    // Released at the end of the command: the next one goes ahead without a word.
    err = new StringWriter();
    assertEquals(0, run(err, "restore"), err::toString);
    assertEquals("", err.toString());
  }

  private Process child(Path home, String... args) throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
    command.addAll(List.of(args));
    command.addAll(targetArgs(cluster));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("PGKNOB_HOME", home.toString());
    String name = home.equals(PgknobHome.resolve()) ? "child" : home.getFileName().toString();
    builder.redirectOutput(dir.resolve(name + ".out").toFile());
    Process p = builder.start();
    children.add(p);
    return p;
  }

  private static List<String> targetArgs(ManagedCluster cluster) {
    return List.of(
        "--target",
        cluster.jdbcUrl("postgres"),
        "--user",
        "postgres",
        "--password-file",
        cluster.passwordFile().toString());
  }

  private int run(StringWriter err, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(targetArgs(SharedPostgres.cluster()));
    return Cli.run(new StringWriter(), err, all);
  }

  private String output(String name) {
    try {
      return Files.readString(dir.resolve(name + ".out"));
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
