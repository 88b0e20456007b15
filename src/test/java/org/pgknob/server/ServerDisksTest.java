package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.SharedPostgres;

class ServerDisksTest {
  private static final long SEGMENT = 16L << 20;

  @Test
  void readsTheFreeSpaceAndTheWalOfARunningClusterFromItsPostmaster() {
    ManagedCluster cluster = SharedPostgres.cluster();
    ServerDisks disks =
        ServerDisks.ofPostmaster(cluster.postmasterPid().orElseThrow()).orElseThrow();
    assertTrue(disks.walFreeBytes() > 0, "free " + disks.walFreeBytes());
    assertTrue(disks.leastFreeBytes() > 0 && disks.leastFreeBytes() <= disks.walFreeBytes());
    assertTrue(disks.walBytes() >= SEGMENT, "at least one 16 MB segment: " + disks.walBytes());
    ServerDisks byFolder = ServerDisks.of(disks.walDirectory().getParent()).orElseThrow();
    assertEquals(disks.walDirectory(), byFolder.walDirectory());
    assertEquals(disks.describe(), byFolder.describe());
  }

  @Test
  void aWalLinkedToAnotherFolderIsNamedAndOnlyItsFilesCount(@TempDir Path dir) throws Exception {
    Path data = Files.createDirectory(dir.resolve("data"));
    Path elsewhere = Files.createDirectory(dir.resolve("wal-disk"));
    Files.write(elsewhere.resolve("000000010000000000000001"), new byte[1000]);
    Files.write(elsewhere.resolve("000000010000000000000002"), new byte[2000]);
    Files.createDirectory(elsewhere.resolve("archive_status"));
    Files.createSymbolicLink(data.resolve("pg_wal"), elsewhere);

    ServerDisks disks = ServerDisks.of(data).orElseThrow();

    assertEquals(3000, disks.walBytes());
    assertEquals(elsewhere.toRealPath(), disks.walDirectory());
    assertEquals(data.toRealPath() + " (WAL in " + elsewhere.toRealPath() + ")", disks.describe());
  }

  @Test
  void aFolderThisHostCannotSeeGivesNoDisks(@TempDir Path dir) {
    assertTrue(ServerDisks.of(dir.resolve("no-such-cluster")).isEmpty());
    assertTrue(ServerDisks.of(dir).isEmpty(), "a folder without pg_wal is no data directory");
    assertTrue(ServerDisks.ofPostmaster(Long.MAX_VALUE).isEmpty(), "no such process");
  }
}
