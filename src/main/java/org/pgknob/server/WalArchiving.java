package org.pgknob.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * WAL archiving that is failing: PostgreSQL keeps every segment it has not archived, whatever
 * max_wal_size says, so a session's gigabytes of WAL would stay on the disk until the archiver
 * catches up, or until the disk is full.
 */
public final class WalArchiving {
  private WalArchiving() {}

  /**
   * Failing archiving, named by its segment and time, when archive_mode is on and the archiver's
   * last attempt failed (its last failure is newer than its last success); empty on a standby, and
   * for a role that may not read pg_stat_archiver.
   */
  static Optional<PrimaryHazard> find(Connection conn) {
    String wal;
    String when;
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT last_failed_wal, to_char(last_failed_time AT TIME ZONE 'UTC',"
                    + " 'YYYY-MM-DD HH24:MI:SS') AS failed_at FROM pg_stat_archiver"
                    + " WHERE current_setting('archive_mode') <> 'off'"
                    + " AND NOT pg_is_in_recovery()"
                    + " AND last_failed_time IS NOT NULL"
                    + " AND (last_archived_time IS NULL OR last_failed_time > last_archived_time)")) {
      if (!rs.next()) {
        return Optional.empty();
      }
      wal = rs.getString("last_failed_wal");
      when = rs.getString("failed_at");
    } catch (SQLException e) {
      return Optional.empty(); // cannot tell: the disk guardrail still watches the disk
    }
    return Optional.of(
        new PrimaryHazard(
            "the server's WAL archiving is failing (segment "
                + wal
                + " at "
                + when
                + " UTC, pg_stat_archiver): PostgreSQL keeps every segment it has not archived, so"
                + " the WAL pgknob's workload writes would pile up on the server's disk until it is full",
            "fix the archive_command or archive_library (the server's log says why it fails), and"
                + " wait until pg_stat_archiver shows a success"));
  }
}
