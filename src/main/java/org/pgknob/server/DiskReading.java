package org.pgknob.server;

/**
 * The server's data and WAL disks as read at one moment, from this host or by the agent on the
 * database host: what the disk rule and the start's reserve check need.
 *
 * @param leastFreeBytes the least free space of the data directory's and the WAL's filesystems, or
 *     -1 when unknown
 * @param walRoomBytes the WAL disk's free space plus the WAL pg_wal holds, or -1 when unknown
 * @param where the disks, for messages: the data directory, and the WAL's folder when elsewhere
 */
public record DiskReading(long leastFreeBytes, long walRoomBytes, String where) {}
