package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.pgknob.workload.CheckpointAccount;

/**
 * The deferred-work account of a window: a CHECKPOINT right after it, timed, and the buffers it
 * wrote, so settings that merely postpone writes past a short window do not look faster.
 */
final class CheckpointAfterWindow {
  /** The checkpointer publishes its statistics just after the CHECKPOINT call returns. */
  private static final long STATS_WAIT_MILLIS = 5000;

  private CheckpointAfterWindow() {}

  /**
   * Runs CHECKPOINT between the ramp-up and the window, while the users keep running, so that the
   * window does not inherit the reset's and the ramp-up's dirty pages (a checkpoint they would
   * force inside the window is a cause of variance from one run to the next).
   *
   * @return its time in seconds, or 0 when the user may not run CHECKPOINT
   */
  static double beforeWindow(Connection monitor) throws SQLException {
    long started = System.nanoTime();
    try (Statement st = monitor.createStatement()) {
      st.execute("CHECKPOINT");
    } catch (SQLException e) {
      if ("42501".equals(e.getSQLState())) {
        return 0;
      }
      throw e;
    }
    return (System.nanoTime() - started) / 1e9;
  }

  /**
   * Runs CHECKPOINT on {@code monitor} and accounts for it against {@code atWindowEnd}.
   *
   * @param atWindowStart counters at the start of the window (for checkpoints inside it)
   * @param atWindowEnd counters at its end
   * @return the account, or {@link CheckpointAccount#NONE}-like figures with only the checkpoints
   *     inside the window when the user may not run CHECKPOINT
   */
  static CheckpointAccount run(
      Connection monitor,
      boolean checkpointerView,
      ServerCounters atWindowStart,
      ServerCounters atWindowEnd)
      throws SQLException, InterruptedException {
    long inWindow = atWindowEnd.checkpoints() - atWindowStart.checkpoints();
    long started = System.nanoTime();
    try (Statement st = monitor.createStatement()) {
      st.execute("CHECKPOINT");
    } catch (SQLException e) {
      if ("42501".equals(e.getSQLState())) {
        // CHECKPOINT needs superuser or pg_checkpoint; without it only the window is known.
        return new CheckpointAccount(0, 0, inWindow);
      }
      throw e;
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    ServerCounters after = ServerCounters.read(monitor, checkpointerView);
    long deadline = System.nanoTime() + STATS_WAIT_MILLIS * 1_000_000;
    while (after.checkpoints() <= atWindowEnd.checkpoints() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      after = ServerCounters.read(monitor, checkpointerView);
    }
    return new CheckpointAccount(
        seconds, after.checkpointBuffers() - atWindowEnd.checkpointBuffers(), inWindow);
  }
}
