package org.pgknob.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.pgknob.PgknobException;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL server binaries (initdb, pg_ctl, postgres) from the zonky Maven artifacts,
 * unpacked once into a cache folder and checked. The default major (18) is bundled in the jar; the
 * others ({@link ManagedVersions}) come from the artifact jar the build copied to {@code
 * target/postgres-binaries/}, or from the local Maven repository.
 *
 * <p>The cache folder is shared by every run of pgknob on this machine; a lock file makes
 * concurrent first runs safe, and unpacking goes to a temporary folder that is renamed into place
 * so an interrupted unpack never leaves a half-filled cache behind.
 */
public final class PostgresBinaries {
  private static final String UNPACK_PREFIX = ".unpack-";

  private static final List<String> REQUIRED = List.of("bin/postgres", "bin/initdb", "bin/pg_ctl");

  private final Path home;
  private final String version;

  private PostgresBinaries(Path home, String version) {
    this.home = home;
    this.version = version;
  }

  /** The bundled (default major's) binaries, unpacked if missing. */
  public static PostgresBinaries ensure(Path pgknobHome) {
    return ensure(pgknobHome, ManagedVersions.DEFAULT_MAJOR);
  }

  /**
   * The binaries of PostgreSQL {@code major} in {@code <pgknob home>/postgres-<artifact version>},
   * unpacked if missing.
   *
   * @throws PgknobException for a major the managed cluster does not run, or whose artifact cannot
   *     be found
   */
  public static PostgresBinaries ensure(Path pgknobHome, int major) {
    String artifactVersion = ManagedVersions.artifactVersion(major);
    Path dir = pgknobHome.resolve("postgres-" + artifactVersion);
    try {
      Files.createDirectories(pgknobHome);
      PgknobHome.makeTraversable(pgknobHome);
      if (!isComplete(dir)) {
        try (FileChannel lockChannel =
                FileChannel.open(
                    pgknobHome.resolve(".unpack.lock"),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock ignored = lockChannel.lock()) {
          if (!isComplete(dir)) {
            deleteAbandonedUnpacks(pgknobHome);
            try (InputStream archive = BinariesArchive.open(major, artifactVersion)) {
              unpack(archive, dir);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new PgknobException(
          "cannot unpack the PostgreSQL binaries into " + dir + ": " + e.getMessage(),
          "check that the folder is writable and has about 100 MB free, or set PGKNOB_HOME",
          e);
    }
    PostgresBinaries binaries = new PostgresBinaries(dir, artifactVersion);
    binaries.check();
    return binaries;
  }

  public Path home() {
    return home;
  }

  public Path bin(String program) {
    return home.resolve("bin").resolve(program);
  }

  /** The version of the artifact the binaries came from, e.g. 18.6.0. */
  public String artifactVersion() {
    return version;
  }

  /** Runs {@code postgres --version}: proves the unpacked binaries load their libraries. */
  public String serverVersion() {
    try {
      Process p =
          new ProcessBuilder(bin("postgres").toString(), "--version")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new PgknobException(
            "the PostgreSQL binaries in " + home + " do not run: " + out,
            "delete that folder so pgknob unpacks them again");
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void check() {
    serverVersion();
  }

  private static boolean isComplete(Path dir) {
    return Files.isRegularFile(dir.resolve(".complete"))
        && REQUIRED.stream().allMatch(p -> Files.isExecutable(dir.resolve(p)));
  }

  /** The major version of these binaries, e.g. 17. */
  public int major() {
    return Integer.parseInt(version.split("\\.")[0]);
  }

  /**
   * Deletes the temporary folders of unpacks that did not finish: a process killed while it
   * unpacked left its folder (about 100 MB) behind. Called under the unpack lock, so no unpack that
   * is still running owns one.
   */
  private static void deleteAbandonedUnpacks(Path pgknobHome) throws IOException {
    try (DirectoryStream<Path> abandoned =
        Files.newDirectoryStream(pgknobHome, UNPACK_PREFIX + "*")) {
      for (Path tmp : abandoned) {
        PgknobHome.deleteTree(tmp);
      }
    }
  }

  /**
   * Unpacks into a temporary folder renamed into place once whole; a failed unpack (a full disk)
   * deletes its folder, so it leaves nothing but the error.
   */
  private static void unpack(InputStream archive, Path dir) throws IOException {
    Path tmp = Files.createTempDirectory(dir.getParent(), UNPACK_PREFIX);
    try {
      unpackInto(archive, tmp);
      Files.writeString(tmp.resolve(".complete"), "unpacked\n");
      if (Files.exists(dir)) {
        PgknobHome.deleteTree(dir);
      }
      Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      try {
        PgknobHome.deleteTree(tmp);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  private static void unpackInto(InputStream archive, Path tmp) throws IOException {
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(archive, 1 << 16)))) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        Path out = tmp.resolve(entry.getName()).normalize();
        if (!out.startsWith(tmp)) {
          throw new IOException("archive entry escapes the target folder: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(out);
        } else if (entry.isSymbolicLink()) {
          Files.createDirectories(out.getParent());
          Files.createSymbolicLink(out, Path.of(entry.getLinkName()));
        } else {
          Files.createDirectories(out.getParent());
          Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
          boolean executable = (entry.getMode() & 0100) != 0;
          Files.setPosixFilePermissions(
              out, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
        }
      }
    }
    try (var walk = Files.walk(tmp)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
      }
    }
  }
}
