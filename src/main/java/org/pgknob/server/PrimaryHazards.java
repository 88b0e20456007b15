package org.pgknob.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.pgknob.PgknobException;

/**
 * The states of a primary in which pgknob's workload would harm it: WAL that no checkpoint could
 * free (an inactive slot without a bound, failing archiving), or commits that would wait for good
 * (a synchronous standby that is gone). Checked before a session, a TPROC-C build or a run writes
 * anything, and again before every trial and whenever a trial's commits stall: a standby can go
 * away, and an archiver start failing, in the middle of a session.
 */
public final class PrimaryHazards {
  /** How long the checks may take on a connection that opened (a stalled server answers slowly). */
  private static final int NETWORK_TIMEOUT_MILLIS = 10_000;

  private PrimaryHazards() {}

  /**
   * @throws PgknobException naming the first hazard found and its fixes; nothing was changed
   */
  public static void refuse(Connection conn) {
    Optional<PrimaryHazard> found = find(conn);
    if (found.isPresent()) {
      throw found.get().refusal();
    }
  }

  /** As {@link #refuse(Connection)}, on a connection of its own to {@code target}. */
  public static void refuse(Target target) {
    Optional<PrimaryHazard> found = find(target);
    if (found.isPresent()) {
      throw found.get().refusal();
    }
  }

  /** The first hazard found, in the order slots, archiving, synchronous standbys. */
  public static Optional<PrimaryHazard> find(Connection conn) {
    Optional<PrimaryHazard> found = ReplicationSlots.find(conn);
    if (found.isEmpty()) {
      found = WalArchiving.find(conn);
    }
    if (found.isEmpty()) {
      found = SynchronousStandbys.find(conn);
    }
    return found;
  }

  /**
   * As {@link #find(Connection)}, on a connection of its own to {@code target}; empty when the
   * server cannot be reached now (the caller's own connection says why, in its words).
   */
  public static Optional<PrimaryHazard> find(Target target) {
    try (Connection conn = target.connect("postgres")) {
      conn.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MILLIS);
      return find(conn);
    } catch (SQLException e) {
      return Optional.empty();
    }
  }
}
