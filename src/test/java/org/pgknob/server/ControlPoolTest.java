package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.SharedPostgres;

/**
 * The control path's pool (issue 15, item 6): its connections keep the control session's pins, are
 * re-made after a restart, wait a bounded time with the driver's own error, and none is left on the
 * server after a restore or a close.
 */
class ControlPoolTest {
  @TempDir Path runDir;

  @Test
  void aConnectionKeepsItsPinsWhenThePoolTakesItBackAndResetsIt() throws Exception {
    try (ControlPool pool = pool()) {
      int pid;
      try (Connection c = pool.connection()) {
        pid = pid(c);
        // Dirty state HikariCP resets on return (with a rollback): the reset must stop there.
        c.setAutoCommit(false);
        c.setReadOnly(true);
        show(c, "search_path");
      }
      try (Connection c = pool.connection()) {
        assertEquals(pid, pid(c), "the same connection, from the pool");
        assertEquals("pg_catalog", show(c, "search_path"));
        assertEquals("0", show(c, "statement_timeout"));
        assertEquals("0", show(c, "idle_session_timeout"));
        assertEquals("off", show(c, "transaction_read_only"));
      }
    }
  }

  @Test
  void aServerWideStatementTimeoutCancelsNeitherTheValidationNorTheWork() throws Exception {
    try (ControlPool pool = pool()) {
      int pid;
      try (Connection c = pool.connection()) {
        pid = pid(c);
      }
      serverWide("ALTER SYSTEM SET statement_timeout = '1ms'");
      try {
        Thread.sleep(600); // past HikariCP's half second without validation
        try (Connection c = pool.connection();
            Statement st = c.createStatement()) {
          assertEquals(pid, pid(c), "validated, not made again");
          st.execute("SELECT pg_catalog.pg_sleep(0.05)");
        }
        pool.evictAll();
        try (Connection c = pool.connection();
            Statement st = c.createStatement()) {
          assertNotEquals(pid, pid(c), "made under the timeout");
          st.execute("SELECT pg_catalog.pg_sleep(0.05)");
        }
      } finally {
        serverWide("ALTER SYSTEM RESET statement_timeout");
      }
    }
  }

  @Test
  void aRestartEndsThePooledConnectionAndTheNextBorrowMakesAPinnedOne() throws Exception {
    try (ControlPool pool = pool()) {
      int pid;
      try (Connection c = pool.connection()) {
        pid = pid(c);
      }
      SharedPostgres.cluster().restart(); // by hand: nothing tells the pool
      try (Connection c = pool.connection()) {
        assertNotEquals(pid, pid(c));
        assertEquals("pg_catalog", show(c, "search_path"));
      }
    }
  }

  @Test
  void aServerThatIsNotThereFailsAtOnceWithTheDriversReasonNotAfterTheWait() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    Properties props = SharedPostgres.cluster().credentials();
    long start = System.nanoTime();
    try (ControlPool pool =
        new ControlPool("nothing", () -> ControlSession.open(url, props), ControlPool.WAIT)) {
      SQLException e = assertThrows(SQLException.class, pool::connection);
      double seconds = (System.nanoTime() - start) / 1e9;
      // the refusal is known at once: a control step on a dropped link must not wait out the
      // pool's 15 s on top of --server-wait
      assertTrue(seconds < 5, "waited " + seconds + " s of " + ControlPool.WAIT);
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      assertTrue(root instanceof ConnectException, "the driver's cause: " + root);
      assertFalse(e.getMessage().contains("request timed out"), e.getMessage());
    }
  }

  @Test
  void aRestoreLeavesNoControlConnectionOnTheServer() throws Exception {
    Set<Integer> before = controlBackends();
    ManagedCluster cluster = SharedPostgres.cluster();
    try (RemoteServer server =
        RemoteServer.open(
            new RemoteServer.Options(
                cluster.jdbcUrl("postgres"),
                "postgres",
                cluster.passwordFile(),
                null,
                Duration.ofSeconds(60)))) {
      server.useRestoreFile(runDir.resolve("restore.json"));
      server.configure(Map.of("work_mem", "9MB"));
      server.settings();
      Set<Integer> ours = controlBackends();
      ours.removeAll(before);
      assertFalse(ours.isEmpty(), "the pool keeps a connection between steps");
      server.restoreOriginals();
      awaitNoneBut(before);
    }
  }

  @Test
  void closingAManagedClusterLeavesNoControlConnectionOnTheServer() throws Exception {
    Set<Integer> before = controlBackends();
    ManagedCluster shared = SharedPostgres.cluster();
    ManagedCluster cluster = ManagedCluster.open(shared.clusterDir(), shared.binaries(), 0);
    cluster.settings();
    Set<Integer> ours = controlBackends();
    ours.removeAll(before);
    assertFalse(ours.isEmpty(), "the pool keeps a connection between steps");
    cluster.close(); // it was running when opened: left running
    awaitNoneBut(before);
  }

  private static ControlPool pool() {
    return new ControlPool(
        "the shared cluster",
        new ManagedServerControl(SharedPostgres.cluster())::connect,
        ControlPool.WAIT);
  }

  private static int pid(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static String show(Connection c, String name) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_catalog.current_setting('" + name + "')")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** Runs {@code sql} and a reload on a pinned connection of its own. */
  private static void serverWide(String sql) throws SQLException {
    try (Connection c = new ManagedServerControl(SharedPostgres.cluster()).connect();
        Statement st = c.createStatement()) {
      st.execute(sql);
      st.execute("SELECT pg_catalog.pg_reload_conf()");
    }
  }

  /** The pids of every backend named as pgknob's control connections. */
  private static Set<Integer> controlBackends() throws SQLException {
    Set<Integer> pids = new HashSet<>();
    try (Connection c = SharedPostgres.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT pid FROM pg_catalog.pg_stat_activity WHERE application_name = '"
                    + ControlPool.APPLICATION_NAME
                    + "'")) {
      while (rs.next()) {
        pids.add(rs.getInt(1));
      }
    }
    return pids;
  }

  /**
   * Waits until the only control backends are those {@code before} the test (another test's): a
   * backend ends shortly after its client closes the socket.
   */
  private static void awaitNoneBut(Set<Integer> before) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    Set<Integer> left;
    while (true) {
      left = controlBackends();
      left.removeAll(before);
      if (left.isEmpty() || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(50);
    }
    assertEquals(Set.of(), left, "control backends still on the server");
  }
}
