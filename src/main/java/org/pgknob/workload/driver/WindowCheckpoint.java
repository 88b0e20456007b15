package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.pgknob.workload.CheckpointAccount;

/**
 * The deferred-work account of a window: a CHECKPOINT before it, so the window does not inherit the
 * reset's and the ramp-up's dirty pages, and one right after it, timed, with the buffers it wrote,
 * so settings that merely postpone writes past a short window do not look faster.
 */
public final class WindowCheckpoint {
  /** The checkpointer publishes its statistics just after the CHECKPOINT call returns. */
  private static final long STATS_WAIT_MILLIS = 5000;

  /** CHECKPOINT needs superuser or pg_checkpoint; without it only the window's counts are known. */
  private static final String INSUFFICIENT_PRIVILEGE = "42501";

  /**
   * The server's counters around a window.
   *
   * @param checkpoints checkpoints started (timed and requested)
   * @param buffers shared buffers written by checkpoints
   * @param autovacuums autovacuum and autoanalyze runs finished on the database's tables
   */
  public record Counters(long checkpoints, long buffers, long autovacuums) {}

  private final Connection monitor;
  private final boolean checkpointerView;

  /**
   * Sets up {@code monitor} to read statistics fresh on every access (not from a per-transaction
   * snapshot); it also runs the CHECKPOINTs, so give it a long socket timeout.
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
    String checkpointer =
        checkpointerView
            ? "SELECT num_timed + num_requested, buffers_written FROM pg_stat_checkpointer"
            : "SELECT checkpoints_timed + checkpoints_req, buffers_checkpoint FROM pg_stat_bgwriter";
    try (Statement st = monitor.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT c.*, (SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0)"
                    + " FROM pg_stat_user_tables) FROM ("
                    + checkpointer
                    + ") c")) {
      rs.next();
      return new Counters(rs.getLong(1), rs.getLong(2), rs.getLong(3));
    }
  }

  /**
   * Runs CHECKPOINT between the ramp-up and the window, while the clients keep running.
   *
   * @return its time in seconds, or 0 when the role may not run CHECKPOINT
   */
  public double beforeWindow() throws SQLException {
    long started = System.nanoTime();
    if (!checkpoint()) {
      return 0;
    }
    return (System.nanoTime() - started) / 1e9;
  }

  /**
   * Runs CHECKPOINT and accounts for it against the window's counters.
   *
   * @return the account; with only what happened inside the window when the role may not run
   *     CHECKPOINT
   */
  public CheckpointAccount afterWindow(
      Counters atWindowStart, Counters atWindowEnd, double beforeWindowSeconds)
      throws SQLException, InterruptedException {
    long inWindow = atWindowEnd.checkpoints() - atWindowStart.checkpoints();
    long autovacuums = atWindowEnd.autovacuums() - atWindowStart.autovacuums();
    long started = System.nanoTime();
    if (!checkpoint()) {
      return new CheckpointAccount(0, 0, inWindow, autovacuums, beforeWindowSeconds);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Counters after = read();
    long deadline = System.nanoTime() + STATS_WAIT_MILLIS * 1_000_000;
    while (after.checkpoints() <= atWindowEnd.checkpoints() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      after = read();
    }
    return new CheckpointAccount(
        seconds,
        after.buffers() - atWindowEnd.buffers(),
        inWindow,
        autovacuums,
        beforeWindowSeconds);
  }

  /** Runs CHECKPOINT; false when the role may not. */
  private boolean checkpoint() throws SQLException {
    try (Statement st = monitor.createStatement()) {
      st.execute("CHECKPOINT");
      return true;
    } catch (SQLException e) {
      if (INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }
}
