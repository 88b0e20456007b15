package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pgknob.server.SettingCatalog;
import org.pgknob.testing.SharedPostgres;

class PgTuneConfigTest {
  private static final long GIB = 1024L * 1024 * 1024;

  /** A PostgreSQL 18 built with lz4 and liburing, knowing every setting PGTune writes. */
  private static SettingCatalog fullPg18(int maxConnections) {
    Set<String> names =
        Set.of(
            "max_connections",
            "shared_buffers",
            "effective_cache_size",
            "maintenance_work_mem",
            "checkpoint_completion_target",
            "wal_buffers",
            "default_statistics_target",
            "random_page_cost",
            "effective_io_concurrency",
            "work_mem",
            "huge_pages",
            "min_wal_size",
            "max_wal_size",
            "max_worker_processes",
            "max_parallel_workers_per_gather",
            "max_parallel_workers",
            "max_parallel_maintenance_workers",
            "jit",
            "wal_compression",
            "io_method");
    return new SettingCatalog(
        18,
        names,
        Map.of(
            "huge_pages", Set.of("off", "on", "try"),
            "wal_compression", Set.of("pglz", "lz4", "zstd", "on", "off"),
            "io_method", Set.of("sync", "worker", "io_uring")),
        maxConnections,
        8);
  }

  @Test
  void twentyFourGibTwoCoresSsdMatchesTheHandComputedValues() {
    // RAM 25165824 kB; shared_buffers /4 = 6291456 kB; work_mem (25165824 - 6291456) / ((100 + 8)
    // x 3) x 1.3 = 75730.5 -> 75730kB = 73.95MB, rounded down (per-connection memory) to 73MB
    // (2 cores: the server's max_worker_processes 8 counts)
    Map<String, String> s =
        new PgTuneConfig(24 * GIB, 2, StorageType.SSD, false, null).settings(fullPg18(100));
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("shared_buffers", "6GB");
    expected.put("effective_cache_size", "18GB");
    expected.put("maintenance_work_mem", "1536MB");
    expected.put("checkpoint_completion_target", "0.9");
    expected.put("wal_buffers", "16MB");
    expected.put("default_statistics_target", "100");
    expected.put("random_page_cost", "1.1");
    expected.put("effective_io_concurrency", "200");
    expected.put("work_mem", "73MB");
    expected.put("huge_pages", "try");
    expected.put("min_wal_size", "2GB");
    expected.put("max_wal_size", "8GB");
    expected.put("jit", "off");
    expected.put("wal_compression", "lz4");
    expected.put("io_method", "io_uring");
    assertEquals(expected, s);
    assertFalse(s.containsKey("max_connections"), "the server's max_connections is kept");
  }

  @Test
  void eightGibEightCoresSetsParallelWorkersAndUsesThemInWorkMem() {
    // shared_buffers 2097152 kB = 2GB; work_mem (8388608 - 2097152) / ((100 + 8) x 3) x 1.3 =
    // 25243.5 -> 25243kB = 24.65MB, rounded down to 24MB; parallel: min(ceil(8 / 2), 4) = 4
    Map<String, String> s =
        new PgTuneConfig(8 * GIB, 8, StorageType.NVME, false, 100).settings(fullPg18(300));
    assertEquals("100", s.get("max_connections"));
    assertEquals("2GB", s.get("shared_buffers"));
    assertEquals("6GB", s.get("effective_cache_size"));
    assertEquals("512MB", s.get("maintenance_work_mem"));
    assertEquals("16MB", s.get("wal_buffers"));
    assertEquals("24MB", s.get("work_mem"));
    assertEquals("try", s.get("huge_pages"));
    assertEquals("1000", s.get("effective_io_concurrency"));
    assertEquals("8", s.get("max_worker_processes"));
    assertEquals("4", s.get("max_parallel_workers_per_gather"));
    assertEquals("8", s.get("max_parallel_workers"));
    assertEquals("4", s.get("max_parallel_maintenance_workers"));
  }

  @Test
  void smallMachineGetsSmallWalBuffersAndTheWorkMemFloor() {
    // 1 GiB: shared_buffers 256MB, wal_buffers 3% = 7864 kB = 7.68MB, within 5% of 8MB; work_mem
    // (786432 / 324) x 0.9 =
    // 2184 kB -> raised to 4MB; HDD with a database larger than RAM keeps random_page_cost 4
    Map<String, String> s =
        new PgTuneConfig(GIB, 1, StorageType.HDD, true, null).settings(fullPg18(100));
    assertEquals("256MB", s.get("shared_buffers"));
    assertEquals("8MB", s.get("wal_buffers"));
    assertEquals("4MB", s.get("work_mem"));
    assertEquals("4", s.get("random_page_cost"));
    assertEquals("2", s.get("effective_io_concurrency"));
    assertEquals("off", s.get("huge_pages"));
    assertEquals("64MB", s.get("maintenance_work_mem"));
  }

  @Test
  void largeDatabaseScalesWorkMemDown() {
    Map<String, String> s =
        new PgTuneConfig(8 * GIB, 8, StorageType.SSD, true, null).settings(fullPg18(100));
    // 6291456 / 324 x 0.9 = 17476.3 kB = 17.07MB -> 17MB
    assertEquals("17MB", s.get("work_mem"));
  }

  @Test
  void aHostJustUnderTwentyFourGibGetsTheRoundValuesADbaWrites() {
    // MemTotal 24683548 kB (what a "24 GB" VM reports): shared_buffers 6170887kB = 5.885GB -> 6GB
    // (up 2%); effective_cache_size 18512661kB = 17.65GB -> 18GB; maintenance 1542721kB -> 1506MB
    Map<String, String> s =
        new PgTuneConfig(24683548L * 1024, 2, StorageType.SSD, false, null).settings(fullPg18(100));
    assertEquals("6GB", s.get("shared_buffers"));
    assertEquals("18GB", s.get("effective_cache_size"));
    assertEquals("1506MB", s.get("maintenance_work_mem"));
    assertEquals("16MB", s.get("wal_buffers"));
    assertEquals("72MB", s.get("work_mem"));
  }

  @Test
  void walBuffersBetweenFourteenAndSixteenMegabytesRoundUp() {
    assertEquals(16 * 1024, PgTuneConfig.walBuffersKb(15 * 1024 * 100 / 3));
    assertEquals(32, PgTuneConfig.walBuffersKb(64));
  }

  @Test
  void leavesOutWhatTheServerDoesNotOffer() {
    SettingCatalog pg14 =
        new SettingCatalog(
            14,
            Set.of("shared_buffers", "work_mem", "wal_compression", "jit"),
            Map.of("wal_compression", Set.of("on", "off")),
            100,
            8);
    Map<String, String> s =
        new PgTuneConfig(4 * GIB, 2, StorageType.SSD, false, null).settings(pg14);
    assertEquals(Set.of("shared_buffers", "work_mem", "jit"), s.keySet());
  }

  @Test
  void onTheBundledServerOffersOnlyWhatItAccepts() throws Exception {
    SettingCatalog facts;
    try (Connection conn = SharedPostgres.connect()) {
      facts = SettingCatalog.read(conn);
    }
    assertEquals(18, facts.majorVersion());
    assertTrue(facts.maxConnections() > 0);
    Map<String, String> s =
        new PgTuneConfig(24 * GIB, 2, StorageType.SSD, false, null).settings(facts);
    // the bundled binaries have neither lz4 nor io_uring (MEASUREMENTS.md)
    assertEquals(
        facts.accepts("wal_compression", "lz4"), s.containsKey("wal_compression"), s.toString());
    assertEquals(facts.accepts("io_method", "io_uring"), s.containsKey("io_method"));
    assertTrue(facts.enumValues().get("io_method").contains("worker"));
    assertEquals("6GB", s.get("shared_buffers"));
  }

  @Test
  void valuesTheServerRunsAlreadyAreNoChange() throws Exception {
    Map<String, org.pgknob.space.PgSetting> server;
    try (Connection conn = SharedPostgres.connect()) {
      server = org.pgknob.space.PgSetting.readAll(conn);
    }
    Map<String, String> pgtune = new LinkedHashMap<>();
    pgtune.put("checkpoint_completion_target", "0.9"); // PostgreSQL 14+ default
    pgtune.put("default_statistics_target", "100");
    pgtune.put("shared_buffers", "131072kB"); // 128MB, the default, spelled otherwise
    pgtune.put("work_mem", "16MB");
    assertEquals(Map.of("work_mem", "16MB"), ServerChanges.only(pgtune, server));
  }
}
