package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.SharedPostgres;

/**
 * No user-level setting pgknob applies, nor one the user set for pgknob's role, can stop pgknob's
 * own control session from rolling back or restoring (issue 14, item 2). Each setting is applied
 * server-wide by one pgknob process and restored by a later one, as {@code apply} then {@code
 * restore} would.
 */
class ControlSessionTest {
  @TempDir Path runDir;

  @AfterEach
  void putBack() throws Exception {
    try (Connection conn = pinned();
        Statement st = conn.createStatement()) {
      st.execute("ALTER ROLE postgres RESET ALL");
      st.execute("ALTER SYSTEM RESET ALL");
      st.execute("SELECT pg_catalog.pg_reload_conf()");
    }
    SharedPostgres.resetSettings();
  }

  @Test
  void everySettingThatCouldBlockTheControlSessionIsAppliedAndRestored() throws Exception {
    try (Connection conn = pinned();
        Statement st = conn.createStatement()) {
      // A schema whose current_setting() lies: with search_path = 'hostile, pg_catalog' an
      // unqualified call in pgknob's privilege check would reach it.
      st.execute("CREATE SCHEMA IF NOT EXISTS hostile");
      st.execute(
          "CREATE OR REPLACE FUNCTION hostile.current_setting(text) RETURNS text"
              + " LANGUAGE sql AS $$ SELECT 'off' $$");
    }
    Map<String, String> blocking = new LinkedHashMap<>();
    blocking.put("statement_timeout", "1ms");
    blocking.put("lock_timeout", "1ms");
    blocking.put("idle_in_transaction_session_timeout", "1ms");
    blocking.put("idle_session_timeout", "1ms");
    blocking.put("transaction_timeout", "10s");
    blocking.put("default_transaction_read_only", "on");
    blocking.put("search_path", "hostile, pg_catalog");
    blocking.put("exit_on_error", "on");
    for (Map.Entry<String, String> e : blocking.entrySet()) {
      String name = e.getKey();
      String before = RemoteServerTest.show(name);
      Path restore = runDir.resolve(name + ".json");
      RemoteServer applying = open(restore);
      applying.configure(Map.of(name, e.getValue()));
      assertTrue(autoConf().contains(name + " = "), name + " applied");
      // A resume reads the server's facts before it restores.
      assertEquals(18, SharedPostgres.cluster().facts().majorVersion(), name);

      RemoteServer restoring = open(restore); // a later 'pgknob restore'
      restoring.restoreOriginals();
      assertTrue(RestoreFile.read(restore).isRestored(), name);
      assertFalse(autoConf().contains(name + " = "), name + " gone from postgresql.auto.conf");
      assertEquals(before, RemoteServerTest.show(name), name + " back");
    }
  }

  @Test
  void aTransactionTimeoutThatWouldEndEveryConnectionAtStartIsRefused() throws Exception {
    Path restore = runDir.resolve("tt.json");
    SettingRejectedException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            SettingRejectedException.class,
            () -> open(restore).configure(Map.of("transaction_timeout", "1ms")));
    assertTrue(e.getMessage().startsWith("transaction_timeout must be 0 (off) or at least 10s"));
    assertFalse(Files.exists(restore), "nothing recorded");
  }

  @Test
  void aRoleSetForPgknobsUserDoesNotStopARestore() throws Exception {
    try (Connection conn = pinned();
        Statement st = conn.createStatement()) {
      st.execute(
          "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgknob_nobody')"
              + " THEN CREATE ROLE pgknob_nobody NOLOGIN; END IF; END $$");
    }
    Path restore = runDir.resolve("role.json");
    open(restore).configure(Map.of("work_mem", "9MB"));
    try (Connection conn = pinned();
        Statement st = conn.createStatement()) {
      st.execute("ALTER ROLE postgres SET role = 'pgknob_nobody'");
      st.execute("ALTER ROLE postgres SET default_transaction_read_only = on");
      st.execute("ALTER ROLE postgres SET statement_timeout = '1ms'");
    }
    open(restore).restoreOriginals();
    assertTrue(RestoreFile.read(restore).isRestored());
    assertFalse(autoConf().contains("work_mem"));
  }

  private static RemoteServer open(Path restore) {
    ManagedCluster cluster = SharedPostgres.cluster();
    RemoteServer s =
        RemoteServer.open(
            new RemoteServer.Options(
                cluster.jdbcUrl("postgres"),
                "postgres",
                cluster.passwordFile(),
                cluster.restartShellCommand(),
                Duration.ofSeconds(60)));
    s.useRestoreFile(restore);
    return s;
  }

  /**
   * A connection of the kind under test, for setting up and cleaning up whatever the server says.
   */
  private static Connection pinned() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    return ControlSession.open(cluster.jdbcUrl("postgres"), cluster.credentials());
  }

  private static String autoConf() throws Exception {
    return Files.readString(SharedPostgres.cluster().dataDir().resolve(AutoConf.FILE_NAME));
  }
}
