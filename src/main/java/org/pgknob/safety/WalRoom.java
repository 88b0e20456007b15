package org.pgknob.safety;

import org.pgknob.server.DiskReading;

/**
 * The disk room the server's WAL may grow into: the free space of its filesystem plus the WAL
 * already there, read at the session's start, from this host or by the agent on the database host;
 * unknown when neither can read that disk.
 *
 * @param bytes the room, or -1 when unknown
 * @param where the disk, for messages: e.g. "/var/lib/postgresql/18/main"
 */
public record WalRoom(long bytes, String where) {
  /** A server whose disk nothing reads: no configuration is refused for its WAL. */
  public static final WalRoom UNKNOWN = new WalRoom(-1, "unknown");

  /** The room {@code reading} found on the WAL disk; unknown when it could not read it. */
  public static WalRoom of(DiskReading reading) {
    return reading.walRoomBytes() < 0
        ? UNKNOWN
        : new WalRoom(reading.walRoomBytes(), reading.where());
  }

  public boolean known() {
    return bytes >= 0;
  }
}
