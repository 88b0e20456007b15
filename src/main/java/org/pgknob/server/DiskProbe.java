package org.pgknob.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * How fast the disk under the server's data directory takes small synchronous writes right now: 8
 * kB writes to a file opened with O_DSYNC, each waiting for the disk as after fdatasync, for a
 * short burst (pg_test_fsync's "open_datasync 8kB" line).
 *
 * <p>Why: on a shared or virtual disk the rate the disk grants varies from run to run, and TPS
 * follows it (README, Measurement: over 49 repeated runs here the probe's rate during the window
 * explained 57% of the run-to-run variance out of sample). A configuration cannot set the disk's
 * share, so the rate is a covariate the validation's paired ratios are adjusted by ({@code
 * measure.AdjustedRatio}). The file sits beside the data directory, never in it.
 */
public final class DiskProbe {
  /** One burst each sampling second: a tenth of the disk's time for a tenth of the second. */
  public static final Duration BURST = Duration.ofMillis(100);

  private static final String FILE = "pgknob-disk-probe.tmp";
  private static final int BLOCK_BYTES = 8192;

  private final Path dir;

  /** A probe writing in {@code dir}, which must be on the data directory's filesystem. */
  public DiskProbe(Path dir) {
    this.dir = dir;
  }

  /** Synchronous 8 kB writes per second over one burst; empty when the file cannot be written. */
  public OptionalDouble writesPerSecond() {
    Path file = dir.resolve(FILE);
    ByteBuffer block = ByteBuffer.allocate(BLOCK_BYTES);
    try (FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.DSYNC)) {
      long start = System.nanoTime();
      long end = start + BURST.toNanos();
      int writes = 0;
      long now = start;
      while (now < end) {
        block.rewind();
        channel.write(block, 0);
        writes++;
        now = System.nanoTime();
      }
      return OptionalDouble.of(writes / ((now - start) / 1e9));
    } catch (IOException e) {
      return OptionalDouble.empty();
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // a leftover 8 kB file beside the data directory harms nothing; the next burst reuses it
      }
    }
  }
}
