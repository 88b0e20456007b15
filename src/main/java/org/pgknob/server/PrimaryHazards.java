package org.pgknob.server;

import java.sql.Connection;
import java.sql.SQLException;
import org.pgknob.PgknobException;

/**
 * The states of a primary in which pgknob's workload would harm it, checked before a session, a
 * TPROC-C build or a run writes anything: WAL that no checkpoint could free (an inactive slot
 * without a bound, failing archiving), or commits that would wait for good (a synchronous standby
 * that is gone).
 */
public final class PrimaryHazards {
  private PrimaryHazards() {}

  /**
   * @throws PgknobException naming the first hazard found and its fixes; nothing was changed
   */
  public static void refuse(Connection conn) {
    ReplicationSlots.refuseUnboundedInactive(conn);
    WalArchiving.refuseFailing(conn);
    SynchronousStandbys.refuseMissing(conn);
  }

  /** As {@link #refuse(Connection)}, on a connection of its own to {@code target}. */
  public static void refuse(Target target) {
    try (Connection conn = target.connect("postgres")) {
      refuse(conn);
    } catch (SQLException e) {
      // Not reachable now: the command's own connection says why, in its words.
    }
  }
}
