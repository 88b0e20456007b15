package org.pgknob.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * A primary whose commits wait for a synchronous standby that is not there: every write of a
 * session (the workload's schema, each trial's transactions) would wait for good, and each trial
 * would end in a timeout that says nothing of the configuration.
 */
public final class SynchronousStandbys {
  private SynchronousStandbys() {}

  /**
   * Commits that would wait for good, when synchronous_standby_names names standbys and none is
   * connected as one: no WAL sender at all, or (for a role that may read pg_stat_replication's
   * states) none in sync or quorum state. Empty on a standby (in recovery), and for a role that may
   * not tell.
   */
  static Optional<PrimaryHazard> find(Connection conn) {
    String names;
    long senders;
    long inSync;
    boolean mayReadStates;
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('synchronous_standby_names') AS names,"
                    + " pg_is_in_recovery() AS standby,"
                    + " (SELECT count(*) FROM pg_stat_replication) AS senders,"
                    + " (SELECT count(*) FROM pg_stat_replication"
                    + "  WHERE sync_state IN ('sync', 'quorum')) AS in_sync,"
                    + " (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
                    + "  OR pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER') AS may_read")) {
      if (!rs.next() || rs.getBoolean("standby")) {
        return Optional.empty();
      }
      names = rs.getString("names").strip();
      senders = rs.getLong("senders");
      inSync = rs.getLong("in_sync");
      mayReadStates = rs.getBoolean("may_read");
    } catch (SQLException e) {
      return Optional.empty(); // cannot tell: the trials' timeouts would say it
    }
    if (names.isEmpty() || (senders > 0 && (inSync > 0 || !mayReadStates))) {
      return Optional.empty();
    }
    return Optional.of(
        new PrimaryHazard(
            "the server's commits wait for a synchronous standby (synchronous_standby_names = '"
                + names
                + "'), and "
                + (senders == 0 ? "no standby is connected" : "no connected standby is synchronous")
                + ": every write of pgknob's workload would wait for good",
            "bring the standby back, or clear synchronous_standby_names (ALTER SYSTEM RESET"
                + " synchronous_standby_names; SELECT pg_reload_conf())"));
  }
}
