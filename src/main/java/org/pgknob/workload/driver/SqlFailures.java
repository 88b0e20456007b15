package org.pgknob.workload.driver;

import java.sql.SQLException;

/** Which database errors a run survives, and which end it. */
public final class SqlFailures {
  private SqlFailures() {}

  /**
   * Errors a TPC-C run counts and carries on from: deadlocks and serialization failures (class 40),
   * lock timeouts (55P03), statement timeouts and cancels (57014), and resource shortages the tuned
   * settings may cause (class 53, e.g. out of shared memory).
   */
  public static boolean isTransient(SQLException e) {
    String state = e.getSQLState();
    if (state == null) {
      return false;
    }
    return state.startsWith("40")
        || state.equals("55P03")
        || state.equals("57014")
        || state.startsWith("53");
  }

  /** The connection or the server is gone: class 08, admin or crash shutdown (57P01..57P03). */
  public static boolean isConnectionLost(Throwable e) {
    if (e instanceof SQLException sql) {
      String state = sql.getSQLState();
      return state != null && (state.startsWith("08") || state.startsWith("57P"));
    }
    return false;
  }
}
