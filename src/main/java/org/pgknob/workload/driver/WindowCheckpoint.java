package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.pgknob.workload.CheckpointAccount;

/**
 * The deferred-work account of a window: a CHECKPOINT right after it, timed, and the buffers it
 * wrote, so settings that merely postpone writes past a short window do not look faster.
 */
public final class WindowCheckpoint {
  /** The checkpointer publishes its statistics just after the CHECKPOINT call returns. */
  private static final long STATS_WAIT_MILLIS = 5000;

  /** The checkpointer's counters: checkpoints started (timed and requested), buffers written. */
  public record Counters(long checkpoints, long buffers) {}

  private final Connection monitor;
  private final boolean checkpointerView;

  /**
   * Sets up {@code monitor} to read statistics fresh on every access (not from a per-transaction
   * snapshot); it also runs the CHECKPOINT, so give it a long socket timeout.
   */
  public WindowCheckpoint(Connection monitor) throws SQLException {
    this.monitor = monitor;
    try (Statement st = monitor.createStatement()) {
      st.execute("SET stats_fetch_consistency = none");
      try (ResultSet rs = st.executeQuery("SHOW server_version_num")) {
        rs.next();
        this.checkpointerView = Integer.parseInt(rs.getString(1)) >= 170000;
      }
    }
  }

  /** The counters now (pg_stat_checkpointer from PostgreSQL 17, else pg_stat_bgwriter). */
  public Counters read() throws SQLException {
    String sql =
        checkpointerView
            ? "SELECT num_timed + num_requested, buffers_written FROM pg_stat_checkpointer"
            : "SELECT checkpoints_timed + checkpoints_req, buffers_checkpoint FROM pg_stat_bgwriter";
    try (Statement st = monitor.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return new Counters(rs.getLong(1), rs.getLong(2));
    }
  }

  /**
   * Runs CHECKPOINT and accounts for it against the window's counters.
   *
   * @return the account; with only the checkpoints inside the window when the role may not run
   *     CHECKPOINT (it needs superuser or pg_checkpoint)
   */
  public CheckpointAccount afterWindow(Counters atWindowStart, Counters atWindowEnd)
      throws SQLException, InterruptedException {
    long inWindow = atWindowEnd.checkpoints() - atWindowStart.checkpoints();
    long started = System.nanoTime();
    try (Statement st = monitor.createStatement()) {
      st.execute("CHECKPOINT");
    } catch (SQLException e) {
      if ("42501".equals(e.getSQLState())) {
        return new CheckpointAccount(0, 0, inWindow);
      }
      throw e;
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Counters after = read();
    long deadline = System.nanoTime() + STATS_WAIT_MILLIS * 1_000_000;
    while (after.checkpoints() <= atWindowEnd.checkpoints() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      after = read();
    }
    return new CheckpointAccount(seconds, after.buffers() - atWindowEnd.buffers(), inWindow);
  }
}
