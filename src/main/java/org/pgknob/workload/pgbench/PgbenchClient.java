package org.pgknob.workload.pgbench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;
import org.pgknob.workload.driver.RunControl;
import org.pgknob.workload.driver.SqlFailures;

/**
 * One pgbench client: its own connection, the script in a loop with no pause, until the driver asks
 * it to stop. A transient error (a deadlock, a serialization failure) is counted and the
 * transaction rolled back, as pgbench does with --max-tries=1.
 */
final class PgbenchClient implements Runnable {
  private final Connection connection;
  private final PgbenchTransaction transaction;
  private final RunControl control;
  private final ClientStats stats;
  private final SplittableRandom random;
  private int phase = RunControl.RAMPUP;

  PgbenchClient(
      Connection connection,
      PgbenchTransaction transaction,
      RunControl control,
      ClientStats stats,
      SplittableRandom random) {
    this.connection = connection;
    this.transaction = transaction;
    this.control = control;
    this.stats = stats;
    this.random = random;
  }

  @Override
  public void run() {
    try (Statement st = connection.createStatement()) {
      while (enterRequestedPhase()) {
        boolean inWindow = phase == RunControl.WINDOW;
        long started = System.nanoTime();
        try {
          transaction.execute(st, random);
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
