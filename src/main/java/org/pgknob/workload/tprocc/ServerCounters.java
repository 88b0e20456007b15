package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The server's own counters HammerDB's monitor reads for TPM and NOPM.
 *
 * @param transactions xact_commit + xact_rollback of the TPROC-C database
 * @param nextOrderIdSum sum(d_next_o_id) over all districts: grows by one per committed new order
 */
record ServerCounters(long transactions, long nextOrderIdSum) {

  /**
   * Reads the counters in one statement over the driver's monitor connection to the TPROC-C
   * database (statistics read fresh on every access).
   */
  static ServerCounters read(Connection monitor) throws SQLException {
    try (Statement st = monitor.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database"
                    + " WHERE datname = current_database()),"
                    + " (SELECT sum(d_next_o_id) FROM district)")) {
      rs.next();
      return new ServerCounters(rs.getLong(1), rs.getLong(2));
    }
  }
}
