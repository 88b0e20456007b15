package org.pgknob.workload.driver;

import java.sql.SQLException;

/**
 * One client's work in a {@link ClosedLoopDriver}: the next transaction's type, then the call on
 * the client's own connection. A workload of one transaction (pgbench's scripts) keeps the
 * defaults; a mix (TPROC-C) draws a type per call and may pause before and after it, as a
 * terminal's keying and thinking times. Called from the client's thread only.
 */
public interface Transaction {
  /** The type of the next call: an index into the plan's transaction names. */
  default int nextType() {
    return 0;
  }

  /** A pause before a call of {@code type} (keying time); 0 for none. */
  default long keyingMillis(int type) {
    return 0;
  }

  /**
   * Runs one call of {@code type}.
   *
   * @return true when it committed, false for a rollback the workload asks for (TPC-C's invalid new
   *     orders)
   * @throws SQLException any failure; a transient one (see {@link SqlFailures#isTransient}) is
   *     counted as an error and the client goes on after {@link #recover}
   */
  boolean execute(int type) throws SQLException;

  /** Puts the connection back in a usable state after a transient error (e.g. a ROLLBACK). */
  default void recover() throws SQLException {}

  /** A pause after a call of {@code type} (thinking time); 0 for none. */
  default long thinkingMillis(int type) {
    return 0;
  }
}
