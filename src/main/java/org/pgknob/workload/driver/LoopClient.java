package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One client of a {@link ClosedLoopDriver}: its own connection, its {@link Transaction} in a loop
 * until the driver asks it to stop, with the transaction's pauses, if any, cut short by a phase
 * change. A transient error (a deadlock, a serialization failure) is counted and the client goes
 * on, as pgbench does with --max-tries=1.
 *
 * <p>When the driver moves to a new phase, the client first asks its server process to publish its
 * statistics (pg_stat_force_next_flush: the next idle moment flushes them, which is before the
 * reply arrives), so the monitor's reading right after sees every transaction the client finished
 * before the boundary. Without it, a busy backend publishes at most once a second and a short
 * window's server-side counts would be off by up to a second of transactions.
 */
final class LoopClient implements Runnable {
  private final Connection connection;
  private final Transaction transaction;
  private final RunControl control;
  private final ClientStats stats;
  private int phase = RunControl.RAMPUP;

  LoopClient(
      Connection connection, Transaction transaction, RunControl control, ClientStats stats) {
    this.connection = connection;
    this.transaction = transaction;
    this.control = control;
    this.stats = stats;
  }

  @Override
  public void run() {
    try {
      while (enterRequestedPhase()) {
        int type = transaction.nextType();
        if (!pause(transaction.keyingMillis(type))) {
          continue;
        }
        boolean inWindow = phase == RunControl.WINDOW;
        long started = System.nanoTime();
        try {
          boolean committed = transaction.execute(type);
          stats.recordCall(type, committed, (System.nanoTime() - started) / 1000, inWindow);
        } catch (SQLException e) {
          if (!SqlFailures.isTransient(e)) {
            throw e;
          }
          transaction.recover();
          stats.recordError(type, inWindow);
        }
        pause(transaction.thinkingMillis(type));
      }
    } catch (SQLException | RuntimeException e) {
      control.fail(e);
    } catch (InterruptedException e) {
      control.fail(e);
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Moves to the phase the driver asked for, flushing statistics at the boundary.
   *
   * @return false when the client must stop
   */
  private boolean enterRequestedPhase() throws SQLException {
    int requested = control.requestedPhase();
    if (requested != phase) {
      flushStatistics();
      phase = requested;
      control.acknowledge(requested);
    }
    return phase != RunControl.STOP;
  }

  private void flushStatistics() throws SQLException {
    if (!control.statsFlushAllowed()) {
      return;
    }
    try (Statement st = connection.createStatement()) {
      st.execute("SELECT pg_stat_force_next_flush()");
    } catch (SQLException e) {
      if (!"42501".equals(e.getSQLState())) {
        throw e;
      }
      control.disallowStatsFlush();
    }
  }

  /**
   * Sleeps for a keying or thinking time, cut short when the driver changes phase.
   *
   * @return true when the whole time passed (at once for no pause)
   */
  private boolean pause(long millis) throws InterruptedException {
    if (millis <= 0) {
      return true;
    }
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (control.requestedPhase() == phase) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return true;
      }
      Thread.sleep(Math.min(left, 50));
    }
    return false;
  }
}
