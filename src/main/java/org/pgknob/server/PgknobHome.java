package org.pgknob.server;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where pgknob keeps what outlives one run: the unpacked PostgreSQL binaries and the default
 * managed cluster.
 *
 * <p>{@code PGKNOB_HOME} if set; else, for root, {@code /var/tmp/pgknob}, because the server runs
 * as an unprivileged uid that cannot traverse {@code /root}; else {@code ~/.cache/pgknob}.
 */
public final class PgknobHome {
  private PgknobHome() {}

  public static Path resolve() {
    String env = System.getenv("PGKNOB_HOME");
    if (env != null && !env.isBlank()) {
      return Path.of(env).toAbsolutePath();
    }
    if (ServerUser.runningAsRoot()) {
      return Path.of("/var/tmp/pgknob");
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path cache =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return cache.resolve("pgknob").toAbsolutePath();
  }

  /** Gives others r-x on a folder pgknob created, so the server's uid can reach what is inside. */
  static void makeTraversable(Path dir) throws IOException {
    Set<PosixFilePermission> perms = EnumSet.copyOf(Files.getPosixFilePermissions(dir));
    perms.addAll(
        EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_EXECUTE));
    Files.setPosixFilePermissions(dir, perms);
  }

  /** Deletes a folder and everything in it, not following symbolic links. */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
            if (exc != null) {
              throw exc;
            }
            Files.delete(dir);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
