package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.pgknob.workload.driver.RunControl;
import org.pgknob.workload.driver.SqlFailures;

/**
 * One TPROC-C terminal: its own connection, a loop of transactions from HammerDB's mix until the
 * driver asks it to stop, optional keying and thinking times.
 *
 * <p>When the driver moves to a new phase, the user first asks its server process to publish its
 * statistics (pg_stat_force_next_flush: the next idle moment flushes them, which is before the
 * reply arrives), so the monitor's pg_stat_database reading right after sees every transaction the
 * user finished before the boundary. Without it, a busy backend publishes at most once a second and
 * a short window's TPM would be off by up to a second of transactions.
 */
final class VirtualUser implements Runnable {
  private final TransactionCalls calls;
  private final Connection connection;
  private final RunControl control;
  private final UserStats stats;
  private final TpccRandom random;
  private final int[] warehouses;
  private final boolean keyAndThink;
  private int phase = RunControl.RAMPUP;

  /**
   * @param warehouses the user's warehouses: one (its home) or, with all-warehouses, the set it
   *     picks from before every transaction
   */
  VirtualUser(
      Connection connection,
      TransactionCalls calls,
      RunControl control,
      UserStats stats,
      TpccRandom random,
      int[] warehouses,
      boolean keyAndThink) {
    this.connection = connection;
    this.calls = calls;
    this.control = control;
    this.stats = stats;
    this.random = random;
    this.warehouses = warehouses.clone();
    this.keyAndThink = keyAndThink;
  }

  @Override
  public void run() {
    try {
      while (enterRequestedPhase()) {
        int w =
            warehouses.length == 1
                ? warehouses[0]
                : warehouses[random.uniform(0, warehouses.length - 1)];
        TransactionType type = TransactionType.next(random);
        if (keyAndThink && !pause(type.keyingMillis())) {
          continue;
        }
        boolean inWindow = phase == RunControl.WINDOW;
        long started = System.nanoTime();
        try {
          boolean committed = calls.call(type, w);
          stats.recordCall(type, committed, (System.nanoTime() - started) / 1000, inWindow);
        } catch (SQLException e) {
          if (!SqlFailures.isTransient(e)) {
            throw e;
          }
          stats.recordError(type, inWindow);
        }
        if (keyAndThink) {
          pause(type.thinkingMillis(random.nextDouble()));
        }
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
   * @return false when the user must stop
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
   * Sleeps for keying or thinking time, cut short when the driver changes phase.
   *
   * @return true when the whole time passed
   */
  private boolean pause(long millis) throws InterruptedException {
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
