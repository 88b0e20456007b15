package org.pgknob.server;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * The filesystems that hold a server's data directory and its WAL, read from this host.
 *
 * <p>pg_wal is often a link to another disk, so both are watched: a full WAL disk makes PostgreSQL
 * stop with a PANIC (it cannot write a commit record), a full data disk makes writes fail. Free
 * space is the space a process that is not root may use (statvfs f_bavail), which is what the
 * server, never root, gets.
 */
public final class ServerDisks {
  private final Path dataDirectory;
  private final Path walDirectory;
  private final FileStore data;
  private final FileStore wal;

  private ServerDisks(Path dataDirectory, Path walDirectory, FileStore data, FileStore wal) {
    this.dataDirectory = dataDirectory;
    this.walDirectory = walDirectory;
    this.data = data;
    this.wal = wal;
  }

  /**
   * The disks of the server whose data directory is {@code dataDirectory}; empty when this host
   * cannot see it (another host's path, or a folder this user may not read).
   */
  public static Optional<ServerDisks> of(Path dataDirectory) {
    try {
      Path dataDir = dataDirectory.toRealPath();
      Path walDir = dataDir.resolve("pg_wal").toRealPath();
      return Optional.of(
          new ServerDisks(
              dataDir, walDir, Files.getFileStore(dataDir), Files.getFileStore(walDir)));
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * The disks of the server {@code facts} describe; empty when it runs on another host or this host
   * cannot see its data directory.
   */
  public static Optional<ServerDisks> of(ServerFacts facts) {
    if (!facts.local() || facts.dataDirectory() == null) {
      return Optional.empty();
    }
    return of(Path.of(facts.dataDirectory()));
  }

  /**
   * The disks of the running server whose postmaster is {@code postmasterPid}: the postmaster works
   * in its data directory, so /proc/[pid]/cwd names it without asking the server.
   */
  public static Optional<ServerDisks> ofPostmaster(long postmasterPid) {
    return of(Path.of("/proc", Long.toString(postmasterPid), "cwd"));
  }

  public Path walDirectory() {
    return walDirectory;
  }

  /** Free bytes on the WAL's filesystem; -1 when it cannot be read now. */
  public long walFreeBytes() {
    return usable(wal);
  }

  /** The least free bytes of the data directory's and the WAL's filesystems; -1 when unreadable. */
  public long leastFreeBytes() {
    long w = usable(wal);
    if (wal.equals(data)) {
      return w; // one filesystem, the usual case: one statvfs a sample, not two
    }
    long d = usable(data);
    if (w < 0 || d < 0) {
      return -1;
    }
    return Math.min(w, d);
  }

  /** Bytes the WAL holds now: its segment files and whatever else lies in pg_wal's top level. */
  public long walBytes() {
    long sum = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(walDirectory)) {
      for (Path f : files) {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        if (a.isRegularFile()) {
          sum += a.size();
        }
      }
    } catch (IOException e) {
      return -1; // a segment removed while listed, or the folder unreadable: no figure
    }
    return sum;
  }

  /** The free space and the WAL disk's room now (the WAL's size is summed from pg_wal's files). */
  public DiskReading reading() {
    long walFree = walFreeBytes();
    long wal = walFree < 0 ? -1 : walBytes();
    return new DiskReading(leastFreeBytes(), wal < 0 ? -1 : walFree + wal, describe());
  }

  /** Where the data directory and the WAL lie, for messages. */
  public String describe() {
    Path walParent = dataDirectory.resolve("pg_wal");
    return walDirectory.equals(walParent)
        ? dataDirectory.toString()
        : dataDirectory + " (WAL in " + walDirectory + ")";
  }

  private static long usable(FileStore store) {
    try {
      return store.getUsableSpace();
    } catch (IOException e) {
      return -1;
    }
  }
}
