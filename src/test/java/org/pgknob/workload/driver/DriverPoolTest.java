package org.pgknob.workload.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.SharedPostgres;

/** The driver's pool on the real server: sized to the clients, and alive again after a restart. */
class DriverPoolTest {
  @Test
  void handsOutWorkingConnectionsAgainAfterTheServerRestartedUnderItsIdleOnes()
      throws SQLException {
    ManagedCluster server = SharedPostgres.cluster();
    try (DriverPool pool =
        new DriverPool(server, "postgres", 2, "pgknob pool test", new Properties())) {
      List<Connection> held = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        held.add(pool.client());
      }
      for (Connection c : held) {
        c.close();
      }
      assertEquals(3, pool.open(), "the clients' and the monitor's connections stay idle");
      List<Integer> before = backendPids(pool);

      server.restart();

      List<Integer> after = backendPids(pool);
      assertEquals(3, after.size());
      assertTrue(
          after.stream().noneMatch(before::contains),
          "new backends after the restart: " + before + " then " + after);
    }
  }

  @Test
  void theMonitorWaitsLongerForItsCallsThanAClient() throws SQLException {
    try (DriverPool pool =
        new DriverPool(
            SharedPostgres.cluster(), "postgres", 1, "pgknob pool test", new Properties())) {
      try (Connection monitor = pool.monitor()) {
        assertEquals(DriverPool.MONITOR_SOCKET_TIMEOUT_SECONDS * 1000, monitor.getNetworkTimeout());
      }
      // The pool puts a borrowed connection's timeout back when it returns.
      try (Connection a = pool.client();
          Connection b = pool.client()) {
        assertEquals(DriverPool.CLIENT_SOCKET_TIMEOUT_SECONDS * 1000, a.getNetworkTimeout());
        assertEquals(DriverPool.CLIENT_SOCKET_TIMEOUT_SECONDS * 1000, b.getNetworkTimeout());
      }
    }
  }

  /** Borrows the pool's three connections at once and returns their server process ids. */
  private static List<Integer> backendPids(DriverPool pool) throws SQLException {
    List<Connection> held = new ArrayList<>();
    List<Integer> pids = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        Connection c = pool.client();
        held.add(c);
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
          rs.next();
          pids.add(rs.getInt(1));
        }
      }
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
    return pids;
  }
}
