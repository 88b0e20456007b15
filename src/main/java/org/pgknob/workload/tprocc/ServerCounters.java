package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The server's own counters HammerDB's monitor reads, plus the checkpointer's.
 *
 * @param transactions xact_commit + xact_rollback of the TPROC-C database
 * @param nextOrderIdSum sum(d_next_o_id) over all districts: grows by one per committed new order
 * @param checkpoints checkpoints started (timed and requested)
 * @param checkpointBuffers shared buffers written by checkpoints
 * @param autovacuums autovacuum and autoanalyze runs finished on the database's tables
 */
record ServerCounters(
    long transactions,
    long nextOrderIdSum,
    long checkpoints,
    long checkpointBuffers,
    long autovacuums) {

  /**
   * Reads the counters in one statement over a connection to the TPROC-C database. The connection
   * must have stats_fetch_consistency = none (see {@link #prepare}) so every read is current.
   */
  static ServerCounters read(Connection monitor, boolean checkpointerView) throws SQLException {
    String checkpointer =
        checkpointerView
            ? "(SELECT num_timed + num_requested FROM pg_stat_checkpointer),"
                + " (SELECT buffers_written FROM pg_stat_checkpointer)"
            : "(SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter),"
                + " (SELECT buffers_checkpoint FROM pg_stat_bgwriter)";
    try (Statement st = monitor.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database"
                    + " WHERE datname = current_database()),"
                    + " (SELECT sum(d_next_o_id) FROM district), "
                    + checkpointer
                    + ", (SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0)"
                    + " FROM pg_stat_user_tables)")) {
      rs.next();
      return new ServerCounters(
          rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
    }
  }

  /**
   * Sets up a monitor connection: statistics read fresh on every access, not from a per-transaction
   * snapshot. Returns whether the server has pg_stat_checkpointer (PostgreSQL 17 and later).
   */
  static boolean prepare(Connection monitor) throws SQLException {
    try (Statement st = monitor.createStatement()) {
      st.execute("SET stats_fetch_consistency = none");
      try (ResultSet rs = st.executeQuery("SHOW server_version_num")) {
        rs.next();
        return Integer.parseInt(rs.getString(1)) >= 170000;
      }
    }
  }
}
