package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.pgknob.PgknobException;

/** Whether the server has room for a run's clients, asked before any of them connects. */
final class ConnectionRoom {
  private ConnectionRoom() {}

  /**
   * @throws PgknobException when max_connections, less the reserved ones and those in use (the
   *     monitor's included), cannot take {@code clients} more
   */
  static void require(Connection monitor, int clients, String clientNoun) throws SQLException {
    try (Statement st = monitor.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('max_connections')::int,"
                    + " current_setting('superuser_reserved_connections')::int"
                    + " + coalesce(current_setting('reserved_connections', true), '0')::int,"
                    + " (SELECT count(*) FROM pg_stat_activity"
                    + " WHERE backend_type = 'client backend')")) {
      rs.next();
      int max = rs.getInt(1);
      int reserved = rs.getInt(2);
      int inUse = rs.getInt(3);
      int available = max - reserved - inUse;
      if (clients > available) {
        throw new PgknobException(
            clients
                + " "
                + clientNoun
                + " need "
                + clients
                + " connections, but the server has room for "
                + Math.max(available, 0)
                + " (max_connections "
                + max
                + ", "
                + reserved
                + " reserved, "
                + inUse
                + " in use, including pgknob's monitor)",
            "use fewer --users or raise max_connections");
      }
    }
  }
}
