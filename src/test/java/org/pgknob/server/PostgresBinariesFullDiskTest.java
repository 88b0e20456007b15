package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.testing.SmallDisk;

/**
 * The first run's unpack of the PostgreSQL binaries into a PGKNOB_HOME on a disk too small for them
 * (a 30 MB tmpfs; they take about 100 MB): one message naming the disk's words and the fix, and no
 * partial copy left filling the disk. An unpack a killed process left behind is deleted by the
 * next.
 */
class PostgresBinariesFullDiskTest {
  @TempDir Path dir;
  private SmallDisk disk;
  private Path home;

  @BeforeEach
  void mountSmallDisk() throws Exception {
    disk = SmallDisk.mount(dir.resolve("home"), "30m");
    home = disk.path();
  }

  @AfterEach
  void unmount() throws Exception {
    if (disk != null) {
      disk.close();
    }
  }

  @Test
  void anUnpackThatFillsTheDiskLeavesNothingBehindNorDoesAKilledOnesFolder() throws Exception {
    Path abandoned = Files.createDirectories(home.resolve(".unpack-1234567890/bin"));
    Files.write(abandoned.resolve("postgres"), new byte[5 << 20]);

    PgknobException e = assertThrows(PgknobException.class, () -> PostgresBinaries.ensure(home));

    assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
    assertTrue(e.fix().contains("has about 100 MB free"), e.fix());
    try (Stream<Path> left = Files.list(home)) {
      List<String> names = left.map(p -> p.getFileName().toString()).sorted().toList();
      assertEquals(List.of(".unpack.lock"), names, "only the lock file stays");
    }
  }
}
