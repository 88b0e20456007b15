package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a {@link ClosedLoopDriver} drives: the checks before any client connects, one {@link
 * Transaction} per client, and the workload's own server counters at the window's two ends. The
 * monitor connection is the driver's: autocommit, statistics read fresh on every access.
 */
public interface Clients {
  /**
   * Checks the database before any client connects (e.g. that it is the workload's own build).
   *
   * @throws org.pgknob.PgknobException naming the cause and the fix
   */
  default void check(Connection monitor) throws SQLException {}

  /** Client {@code index}'s work on its own {@code connection}. */
  Transaction open(int index, Connection connection) throws SQLException;

  /** The window starts: read the counters the workload reports over it. */
  default void windowStarted(Connection monitor) throws SQLException {}

  /** The window ended and every client stopped. */
  default void windowEnded(Connection monitor) throws SQLException {}
}
