package org.pgknob.safety;

/**
 * The rules' disk section: the share of the WAL disk's room a configuration's WAL may claim, and
 * the free space the disk guardrail keeps on the server's data and WAL disks during a trial.
 *
 * <p>The WAL a configuration may keep is max_wal_size plus wal_keep_size (or min_wal_size, when a
 * rules file lets it exceed max_wal_size). max_wal_size is a soft limit that heavy load overshoots,
 * hence a share of the room and not all of it; and never the reserve.
 *
 * @param walLimitFraction the share of the room, in (0, 1]
 * @param reserveBytes the free space the guardrail keeps, in bytes
 */
public record DiskRule(double walLimitFraction, long reserveBytes) {
  /** Half the room for the WAL, and 1 GiB kept free. */
  public static final DiskRule DEFAULT = new DiskRule(0.5, 1L << 30);

  public DiskRule {
    if (!(walLimitFraction > 0 && walLimitFraction <= 1) || reserveBytes < 0) {
      throw new IllegalArgumentException(
          "the WAL's share must lie in (0, 1] and the reserve must not be negative, but got "
              + walLimitFraction
              + " and "
              + reserveBytes);
    }
  }

  /**
   * The most WAL a configuration may keep in {@code room}: its share, and never so much that the
   * guardrail's reserve would be reached (on a small disk that is the tighter bound).
   */
  long walLimitBytes(WalRoom room) {
    long share = (long) Math.floor(walLimitFraction * room.bytes());
    return Math.max(0, Math.min(share, room.bytes() - reserveBytes));
  }
}
