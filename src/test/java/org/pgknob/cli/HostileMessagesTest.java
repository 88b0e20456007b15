package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/**
 * The messages of issue 14, item 12, against the real shared cluster (by URL, as a user's server):
 * each is one line that names the cause, and the server is left as it was.
 */
class HostileMessagesTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void anIntegerWithALeadingZeroIsRefusedAsOctalInsteadOfAppliedAs128() throws Exception {
    assertEquals(1, onServer("apply", "--set", "work_mem=0200"));
    assertOneLine("work_mem must not start with 0: PostgreSQL reads 0200 as octal 128");
    assertEquals("4MB", show("work_mem"));
  }

  @Test
  void aHugeValueIsShortenedInTheMessage() throws Exception {
    String huge = "9".repeat(10_000);
    assertEquals(1, onServer("apply", "--set", "work_mem=" + huge));
    assertOneLine("...(10000 characters)");
    assertTrue(err.toString().length() < 400, err::toString);
    assertEquals("4MB", show("work_mem"));
  }

  @Test
  void aPortThatAnswersLikeSshIsNotPostgresql() throws Exception {
    try (ServerSocket ssh = new ServerSocket(0)) {
      Thread banner =
          new Thread(
              () -> {
                while (!ssh.isClosed()) {
                  try {
                    Socket s = ssh.accept();
                    s.getOutputStream()
                        .write("SSH-2.0-OpenSSH_9.6\r\n".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush(); // and keep it open, as sshd waits for a client
                  } catch (Exception e) {
                    return;
                  }
                }
              });
      banner.setDaemon(true);
      banner.start();
      Path password = Files.writeString(dir.resolve("password"), "secret\n");
      Files.setPosixFilePermissions(
          password, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      assertEquals(
          1,
          run(
              "target",
              "--target",
              "jdbc:postgresql://127.0.0.1:" + ssh.getLocalPort() + "/postgres",
              "--user",
              "tuner",
              "--password-file",
              password.toString()));
      assertOneLine(
          "the server at 127.0.0.1:"
              + ssh.getLocalPort()
              + " is not PostgreSQL (it answered 'SSH-2.0-OpenSSH_9.6')");
    }
  }

  @Test
  void theJdbcDriverLogsNothingOfItsOwnBesideTheOneLine() {
    List<java.util.logging.LogRecord> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler handler =
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord r) {
            logged.add(r);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    java.util.logging.Logger driver = java.util.logging.Logger.getLogger("org.postgresql");
    driver.addHandler(handler);
    try {
      // The driver logs "JDBC URL port: 99999 not valid" to stderr before refusing the URL.
      assertEquals(1, run("target", "--target", "jdbc:postgresql://127.0.0.1:99999/postgres"));
      assertOneLine("is not a PostgreSQL JDBC URL");
      assertEquals(
          List.of(), logged.stream().map(java.util.logging.LogRecord::getMessage).toList());
    } finally {
      driver.removeHandler(handler);
    }
  }

  @Test
  void aDamagedRestoreFileIsOneLineNamingTheFileAndTheWayOut() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run"));
    Path file = Files.writeString(run.resolve("restore.json"), "{\"identity\": {\"kind\": \n");
    assertEquals(1, run("restore", run.toString()));
    assertOneLine("the restore file " + file + " is damaged at line 2");
    assertTrue(err.toString().contains("ALTER SYSTEM RESET"), err::toString);
    assertFalse(err.toString().contains("jackson"), err::toString);
  }

  @Test
  void aSpaceTheServerRefusesIsOneLineAndClaimsNoRestore() throws Exception {
    Path space =
        Files.writeString(
            dir.resolve("space.yaml"), "knobs:\n  no_such_knob: {type: integer, min: 1, max: 2}\n");
    String autoConf =
        Files.readString(SharedPostgres.cluster().dataDir().resolve("postgresql.auto.conf"));
    assertEquals(
        1, onServer("tune", "--space", space.toString(), "--out", dir.resolve("runs").toString()));
    assertOneLine("no_such_knob");
    assertFalse(err.toString().contains("are back"), err::toString);
    assertFalse(out.toString().contains("are back"), out::toString);
    assertEquals(
        autoConf,
        Files.readString(SharedPostgres.cluster().dataDir().resolve("postgresql.auto.conf")));
  }

  @Test
  void theDiskProbeOnAServerElsewhereIsOneLineBeforeAnyTrialAndChangesNothing() throws Exception {
    String autoConf =
        Files.readString(SharedPostgres.cluster().dataDir().resolve("postgresql.auto.conf"));
    assertEquals(1, onServer("tune", "--disk-probe", "--out", dir.resolve("runs").toString()));
    assertOneLine("--disk-probe writes beside the managed cluster's data directory");
    assertTrue(err.toString().contains("leave out --disk-probe with --target"), err::toString);
    assertEquals(
        autoConf,
        Files.readString(SharedPostgres.cluster().dataDir().resolve("postgresql.auto.conf")));
  }

  @Test
  void spaceShowTakesRulesLikeTuneAndStillTheOldName() throws Exception {
    Path missing = dir.resolve("missing.yaml");
    for (String option : List.of("--rules", "--safety-rules")) {
      assertEquals(1, run("space", "show", option, missing.toString()));
      assertOneLine("safety rules file " + missing + " does not exist");
    }
  }

  private void assertOneLine(String expected) {
    String text = err.toString();
    assertTrue(text.startsWith("pgknob: ") && text.contains(expected), text);
    assertEquals(1, text.lines().count(), text);
  }

  /** Runs against the shared cluster named by URL, as a user's own server. */
  private int onServer(String... args) {
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
    return run(all.toArray(String[]::new));
  }

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return Cli.run(out, err, args);
  }

  private static String show(String name) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
