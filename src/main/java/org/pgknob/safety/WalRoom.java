package org.pgknob.safety;

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

  public boolean known() {
    return bytes >= 0;
  }
}
