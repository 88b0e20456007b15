package org.pgknob.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.pgknob.space.PgUnit;

/**
 * Replication slots that would keep the WAL of pgknob's workload on the server's disk for good.
 *
 * <p>An inactive slot (its standby or subscriber is gone) holds every WAL segment from its
 * restart_lsn on, whatever max_wal_size says, unless max_slot_wal_keep_size bounds it (default -1:
 * no bound). A tuning session writes gigabytes of WAL; with such a slot none of it is recycled, the
 * disk fills until the guardrail stops every trial, and a CHECKPOINT cannot free it: the server
 * would be left with its disk nearly full after pgknob has gone.
 */
public final class ReplicationSlots {
  private ReplicationSlots() {}

  /**
   * The inactive replication slots that may keep WAL without a bound, named with what they retain;
   * empty on a standby (in recovery: it writes no WAL of its own), and on a server whose slots this
   * role may not read (the disk guardrail still stops trials on a filling disk).
   */
  static Optional<PrimaryHazard> find(Connection conn) {
    List<String> slots = new ArrayList<>();
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT slot_name, slot_type,"
                    + " pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint AS retained"
                    + " FROM pg_replication_slots"
                    + " WHERE NOT active AND restart_lsn IS NOT NULL"
                    + " AND current_setting('max_slot_wal_keep_size') = '-1'"
                    + " AND NOT pg_is_in_recovery()"
                    + " ORDER BY slot_name")) {
      while (rs.next()) {
        slots.add(
            "'"
                + rs.getString("slot_name")
                + "' ("
                + rs.getString("slot_type")
                + ", "
                + PgUnit.readableBytes(Math.max(0, rs.getLong("retained")))
                + " of WAL kept now)");
      }
    } catch (SQLException e) {
      return Optional.empty(); // no right to read the slots: nothing to say about them
    }
    if (slots.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new PrimaryHazard(
            "the server has "
                + (slots.size() == 1
                    ? "an inactive replication slot that keeps"
                    : "inactive replication slots that keep")
                + " WAL without a bound (max_slot_wal_keep_size = -1): "
                + String.join(", ", slots)
                + "; the WAL pgknob's workload writes would pile up on the server's disk until it is"
                + " full, and no checkpoint could free it",
            "bring the slot's standby or subscriber back, drop a slot nothing uses (SELECT"
                + " pg_drop_replication_slot('name')), or set max_slot_wal_keep_size"));
  }
}
