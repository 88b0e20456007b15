package org.pgknob.safety;

import org.pgknob.server.ServerDisks;

/**
 * The disk room the server's WAL may grow into: the free space of its filesystem plus the WAL
 * already there, read once at the session's start; unknown when this host cannot see that disk.
 *
 * @param bytes the room, or -1 when unknown
 * @param where the disk, for messages: e.g. "/var/lib/postgresql/18/main"
 */
public record WalRoom(long bytes, String where) {
  /** A server whose disk this host cannot see: no configuration is refused for its WAL. */
  public static final WalRoom UNKNOWN = new WalRoom(-1, "unknown");

  /**
   * The room on the WAL disk of {@code disks} now: its free space plus the WAL already there;
   * unknown when either cannot be read.
   */
  public static WalRoom of(ServerDisks disks) {
    long free = disks.walFreeBytes();
    long wal = disks.walBytes();
    if (free < 0 || wal < 0) {
      return UNKNOWN;
    }
    return new WalRoom(free + wal, disks.describe());
  }

  public boolean known() {
    return bytes >= 0;
  }
}
