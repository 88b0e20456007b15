package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;

/** The existing-server path, exercised against the shared managed cluster reached by JDBC URL. */
class RemoteServerTest {
  @TempDir Path runDir;
  RemoteServer server;

  @AfterEach
  void putBack() throws Exception {
    if (server != null) {
      server.restoreOriginals();
    }
    SharedPostgres.resetSettings();
  }

  @Test
  void appliesAndRestoresThroughAJdbcUrlAPasswordFileAndARestartCommand() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    server = open(cluster.restartShellCommand(), Duration.ofSeconds(60), cluster.passwordFile());
    assertTrue(server.isLocal(), "loopback host whose data folder is readable here");
    ServerFacts facts = server.facts();
    assertEquals(18, facts.majorVersion());
    assertEquals(cluster.postmasterPid(), facts.postmasterPid());

    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("work_mem", "6MB");
    settings.put("shared_buffers", "192MB");
    ApplyReport report = server.configure(settings);
    assertTrue(report.restarted());
    assertEquals("6MB", show("work_mem"));
    assertEquals("192MB", show("shared_buffers"));

    ApplyReport restored = server.restoreOriginals();
    assertTrue(restored.restarted());
    assertEquals("4MB", show("work_mem"));
    assertEquals("128MB", show("shared_buffers"));
    assertTrue(RestoreFile.read(server.restoreFile()).isRestored());
  }

  @Test
  void afterARestartTheSamplerWatchesTheNewPostmaster() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    server = open(cluster.restartShellCommand(), Duration.ofSeconds(60), cluster.passwordFile());
    long first = cluster.postmasterPid().orElseThrow();

    assertTrue(server.configure(Map.of("shared_buffers", "144MB")).restarted());

    long second = cluster.postmasterPid().orElseThrow();
    assertNotEquals(first, second, "a restart starts a new postmaster");
    assertEquals(OptionalLong.of(second), server.facts().postmasterPid());
    try (ProcessSampler sampler = server.newSampler().orElseThrow()) {
      assertEquals(second, sampler.postmasterPid());
      ProcessSample sample = sampler.sampleNow();
      // the postmaster and its background processes, their memory and disk (0 with the old pid)
      assertTrue(sample.processes() >= 4, sample.processes() + " processes");
      assertTrue(sample.rssBytes() > 0, "the server's memory: " + sample.rssBytes());
      assertTrue(sample.diskFreeBytes() > 0, "the data folder's disk: " + sample.diskFreeBytes());
    }
  }

  @Test
  void aFailingRestartCommandLeavesTheServerUpWithThePreviousSettings() throws Exception {
    server = open("echo cannot restart here; exit 3", Duration.ofSeconds(30), passwordFile());
    SettingRejectedException e =
        assertThrows(
            SettingRejectedException.class,
            () -> server.configure(Map.of("shared_buffers", "192MB")));
    assertEquals(SettingRejectedException.Reason.DID_NOT_START, e.reason());
    assertTrue(e.getMessage().contains("exited with status 3"), e.getMessage());
    assertTrue(e.getMessage().contains("cannot restart here"), e.getMessage());
    assertEquals("128MB", show("shared_buffers"));
    assertFalse(autoConf().contains("shared_buffers"));
  }

  @Test
  void aRestartCommandThatTakesTooLongIsStoppedAndRolledBack() throws Exception {
    server = open("sleep 30", Duration.ofSeconds(2), passwordFile());
    SettingRejectedException e =
        assertThrows(
            SettingRejectedException.class,
            () -> server.configure(Map.of("max_connections", "90")));
    assertTrue(e.getMessage().contains("timed out after 2 s"), e.getMessage());
    assertEquals("100", show("max_connections"));
    assertFalse(autoConf().contains("max_connections"));
  }

  @Test
  void refusesARestartSettingWithoutARestartCommandBeforeChangingAnything() throws Exception {
    server = open(null, Duration.ofSeconds(30), passwordFile());
    SettingRejectedException e =
        assertThrows(
            SettingRejectedException.class,
            () -> server.configure(Map.of("shared_buffers", "192MB")));
    assertTrue(e.getMessage().contains("no restart command was given"), e.getMessage());
    assertFalse(Files.exists(server.restoreFile()));
  }

  @Test
  void refusesUnknownSettingsAndValuesOfTheWrongType() throws Exception {
    server = open(null, Duration.ofSeconds(30), passwordFile());
    PgknobException unknown =
        assertThrows(PgknobException.class, () -> server.configure(Map.of("work_men", "4MB")));
    assertTrue(unknown.getMessage().contains("unknown setting 'work_men'"), unknown.getMessage());
    assertTrue(unknown.fix().contains("work_mem"), unknown.fix());
    PgknobException wrongType =
        assertThrows(PgknobException.class, () -> server.configure(Map.of("work_mem", "lots")));
    assertTrue(
        wrongType.getMessage().startsWith("work_mem must be an integer"), wrongType.getMessage());
    PgknobException badEnum =
        assertThrows(PgknobException.class, () -> server.configure(Map.of("wal_level", "max")));
    assertTrue(
        badEnum.getMessage().contains("must be one of minimal, replica, logical"),
        badEnum.getMessage());
    assertFalse(Files.exists(server.restoreFile()), "nothing recorded, nothing changed");
  }

  @Test
  void namesEachMissingPrivilegeAndTheGrantThatFixesIt() throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute("DROP ROLE IF EXISTS pgknob_weak");
      st.execute("CREATE ROLE pgknob_weak LOGIN PASSWORD 'weak-pw'");
    }
    try {
      Path weakPassword = secretFile("weak-pw");
      RemoteServer weak =
          RemoteServer.open(
              new RemoteServer.Options(
                  SharedPostgres.cluster().jdbcUrl("postgres"),
                  "pgknob_weak",
                  weakPassword,
                  null,
                  Duration.ofSeconds(10)));
      weak.useRestoreFile(runDir.resolve("weak.json"));
      PgknobException e =
          assertThrows(PgknobException.class, () -> weak.configure(Map.of("work_mem", "6MB")));
      assertTrue(
          e.getMessage().contains("role pgknob_weak may not change work_mem"), e.getMessage());
      assertTrue(
          e.fix().contains("GRANT ALTER SYSTEM ON PARAMETER work_mem TO \"pgknob_weak\""), e.fix());
      assertTrue(
          e.fix().contains("GRANT EXECUTE ON FUNCTION pg_catalog.pg_reload_conf()"), e.fix());
      assertTrue(e.fix().contains("GRANT pg_read_all_settings"), e.fix());
      assertFalse(Files.exists(weak.restoreFile()));
      assertEquals("4MB", show("work_mem"));
    } finally {
      try (Connection conn = SharedPostgres.connect();
          Statement st = conn.createStatement()) {
        st.execute("DROP ROLE pgknob_weak");
      }
    }
  }

  @Test
  void reportsAWrongPasswordInOneLine() throws Exception {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () ->
                RemoteServer.open(
                    new RemoteServer.Options(
                        SharedPostgres.cluster().jdbcUrl("postgres"),
                        "postgres",
                        secretFile("not-it"),
                        null,
                        null)));
    assertTrue(
        e.getMessage().startsWith("wrong password for user postgres at 127.0.0.1:"),
        e.getMessage());
    assertFalse(e.getMessage().contains("not-it"));
  }

  @Test
  void reportsAClosedPortAsUnreachableWithHostAndPort() {
    int closed = ManagedCluster.freePort();
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () ->
                RemoteServer.open(
                    new RemoteServer.Options(
                        "jdbc:postgresql://127.0.0.1:" + closed + "/postgres",
                        "postgres",
                        null,
                        null,
                        null)));
    assertEquals("cannot connect to 127.0.0.1:" + closed + ": connection refused", e.getMessage());
  }

  @Test
  void reportsAMissingDatabase() throws Exception {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () ->
                RemoteServer.open(
                    new RemoteServer.Options(
                        SharedPostgres.cluster().jdbcUrl("no_such_db"),
                        "postgres",
                        passwordFile(),
                        null,
                        null)));
    assertTrue(
        e.getMessage().startsWith("database no_such_db does not exist at 127.0.0.1:"),
        e.getMessage());
  }

  @Test
  void refusesAPasswordInTheUrl() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () ->
                RemoteServer.open(
                    new RemoteServer.Options(
                        "jdbc:postgresql://127.0.0.1:5432/postgres?password=secret",
                        null,
                        null,
                        null,
                        null)));
    assertTrue(e.getMessage().contains("carries a password"), e.getMessage());
  }

  private RemoteServer open(String restartCommand, Duration timeout, Path passwordFile) {
    RemoteServer s =
        RemoteServer.open(
            new RemoteServer.Options(
                SharedPostgres.cluster().jdbcUrl("postgres"),
                "postgres",
                passwordFile,
                restartCommand,
                timeout));
    s.useRestoreFile(runDir.resolve(RestoreFile.FILE_NAME));
    return s;
  }

  private static Path passwordFile() {
    return SharedPostgres.cluster().passwordFile();
  }

  private Path secretFile(String password) throws Exception {
    Path file = Files.createTempFile(runDir, "pw", "");
    Files.writeString(file, password + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private static String autoConf() throws Exception {
    return Files.readString(SharedPostgres.cluster().dataDir().resolve("postgresql.auto.conf"));
  }

  static String show(String name) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
