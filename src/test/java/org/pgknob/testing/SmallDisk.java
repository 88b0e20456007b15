package org.pgknob.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small disk for tests of what fills up: a tmpfs of a given size mounted on a folder, open to
 * every user (mode 1777, so the server's user may write too). Mounting needs root: elsewhere the
 * test is skipped, as it is when the mount is refused. {@link #close} unmounts it.
 */
public final class SmallDisk implements AutoCloseable {
  private final Path path;

  private SmallDisk(Path path) {
    this.path = path;
  }

  /**
   * Mounts a tmpfs of {@code size} (as mount takes it: 200k, 30m) on {@code at}, created if
   * missing; skips the test where that cannot be done.
   */
  public static SmallDisk mount(Path at, String size) throws IOException, InterruptedException {
    Assumptions.assumeTrue(
        "root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
    Files.createDirectories(at);
    Assumptions.assumeTrue(
        sh("mount -t tmpfs -o size=" + size + ",mode=1777 pgknob-small-disk '" + at + "'") == 0,
        "mount refused");
    return new SmallDisk(at);
  }

  /** The folder the disk is mounted on. */
  public Path path() {
    return path;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    sh("umount '" + path + "'");
  }

  private static int sh(String command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
  }
}
