package org.pgknob.workload;

import java.sql.SQLException;
import org.pgknob.PgknobException;

/**
 * The error for a workload's database that could not be built or reset, with the fix its cause
 * calls for: a server that accepts no writes is not a disk to free.
 */
public final class BuildFailure {
  /** SQLSTATE read_only_sql_transaction: a standby, or default_transaction_read_only = on. */
  private static final String READ_ONLY = "25006";

  private BuildFailure() {}

  /**
   * @param what e.g. "building the TPROC-C database"
   * @param diskFix the fix for any other cause, e.g. "check the server's log and free disk space"
   */
  public static PgknobException of(String what, SQLException e, String diskFix) {
    String fix =
        READ_ONLY.equals(e.getSQLState())
            ? "the server accepts no writes (a standby, or default_transaction_read_only = on):"
                + " tune the primary, or turn it off for the tuning role (ALTER ROLE name SET"
                + " default_transaction_read_only = off)"
            : diskFix;
    return new PgknobException(what + " failed: " + e.getMessage(), fix, e);
  }
}
