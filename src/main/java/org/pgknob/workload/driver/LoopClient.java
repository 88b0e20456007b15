package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One client of a {@link ClosedLoopDriver}: its own connection, the transaction in a loop with no
 * pause, until the driver asks it to stop. A transient error (a deadlock, a serialization failure)
 * is counted and the transaction rolled back, as pgbench does with --max-tries=1.
 */
final class LoopClient implements Runnable {
  private final Connection connection;
  private final ClosedLoopDriver.Transaction transaction;
  private final RunControl control;
  private final ClientStats stats;
  private int phase = RunControl.RAMPUP;

  LoopClient(
      Connection connection,
      ClosedLoopDriver.Transaction transaction,
      RunControl control,
      ClientStats stats) {
    this.connection = connection;
    this.transaction = transaction;
    this.control = control;
    this.stats = stats;
  }

  @Override
  public void run() {
    try (Statement st = connection.createStatement()) {
      while (enterRequestedPhase()) {
        boolean inWindow = phase == RunControl.WINDOW;
        long started = System.nanoTime();
        try {
          transaction.execute(st);
          stats.recordCommit((System.nanoTime() - started) / 1000, inWindow);
        } catch (SQLException e) {
          if (!SqlFailures.isTransient(e)) {
            throw e;
          }
          st.execute("ROLLBACK");
          stats.recordError(inWindow);
        }
      }
    } catch (SQLException | RuntimeException e) {
      control.fail(e);
    }
  }

  /** Moves to the phase the driver asked for; false when the client must stop. */
  private boolean enterRequestedPhase() {
    int requested = control.requestedPhase();
    if (requested != phase) {
      phase = requested;
      control.acknowledge(requested);
    }
    return phase != RunControl.STOP;
  }
}
