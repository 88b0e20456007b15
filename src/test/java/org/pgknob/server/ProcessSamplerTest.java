package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.BusyQuery;
import org.pgknob.testing.SharedPostgres;

class ProcessSamplerTest {
  private static final long MIB = 1L << 20;
  private static final int TABLES = 4;

  private static ProcessSampler sampler() {
    return new ProcessSampler(
        SharedPostgres.cluster().postmasterPid().orElseThrow(), Duration.ofMillis(200));
  }

  @Test
  void closingWhileASampleIsBeingTakenEndsWithTheSampleNotSecondsLater() throws Exception {
    // Samples of 50 ms (a slow /proc on a busy host) one after the other while close() is called.
    // close used to hold the sampler's lock while it waited for the sampling thread, which needed
    // that lock to finish its sample, so it waited its full 5 s. Then it still took the lock to
    // stop the timer, and each sample handed the lock on to the next before close got it: 635 ms
    // in one of 40 closes here, 4.1 s once in CI. Now one sample at most: about 50 ms.
    long slowest = 0;
    for (int i = 0; i < 40; i++) {
      CountDownLatch sampling = new CountDownLatch(1);
      ProcessSampler sampler =
          new ProcessSampler(
              () -> {
                sampling.countDown();
                long end = System.nanoTime() + 50_000_000L;
                while (System.nanoTime() < end) {
                  Thread.onSpinWait(); // not interruptible, as a read of /proc is not
                }
                return Optional.empty();
              },
              Duration.ofMillis(1));
      sampler.start();
      sampling.await();
      Thread.sleep(i % 7 * 13); // close at different points of a sample
      long start = System.nanoTime();
      sampler.close();
      slowest = Math.max(slowest, Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    assertTrue(slowest < 500, "the slowest of 40 closes took " + slowest + " ms");
  }

  @Test
  void samplesTheServersProcessTreeAndTheHost() throws Exception {
    try (ProcessSampler sampler = sampler()) {
      ProcessSample first = sampler.sampleNow();
      // postmaster, checkpointer, background writer, WAL writer, autovacuum launcher, ...
      assertTrue(first.processes() >= 5, "processes: " + first.processes());
      assertTrue(sampler.pssReadable(), "run the tests as root or as the server's user");
      assertTrue(first.rssBytes() > first.pssBytes() && first.pssBytes() > 0, first.toString());
      assertTrue(first.hostMemTotalBytes() > first.hostMemAvailableBytes(), first.toString());
      assertEquals(HostMemory.read().memTotalBytes(), first.hostMemTotalBytes());

      sampler.startWindow();
      ResourceSummary summary;
      try (Connection conn = SharedPostgres.connect();
          Statement st = conn.createStatement()) {
        st.execute("SELECT count(*) FROM generate_series(1, 3000000)");
        ProcessSample busy = sampler.sampleNow();
        assertTrue(busy.cpuUserPct() + busy.cpuSysPct() > 0, busy.toString());
        assertTrue(busy.processes() > first.processes(), "the connection's backend is counted");
        sampler.sampleNow();
        summary = sampler.stopWindow();
      }
      assertTrue(summary.available());
      assertEquals(2, summary.samples());
      assertTrue(summary.rssPeakBytes() >= summary.rssAvgBytes());
      assertTrue(summary.cpuUserPct() > 0, summary.toString());
    }
  }

  /**
   * A query in another database than the workload's, running through a whole window, takes a core
   * the trial would have had: with {@link ProcessSampler#countOtherClients} it counts as foreign
   * CPU, not as the server's; the same query in the workload's database stays the server's.
   */
  @Test
  void aLongQueryOfAnotherDatabaseCountsAsOtherProcessesNotAsTheServer() throws Exception {
    double[] elsewhere = windowWithALongQuery("tprocc_not_this_one");
    double[] same = windowWithALongQuery("postgres");
    // {server cores, foreign cores}: the query keeps one core busy for the whole window
    assertTrue(elsewhere[1] - same[1] > 0.6, "foreign: " + elsewhere[1] + " against " + same[1]);
    assertTrue(same[0] - elsewhere[0] > 0.6, "server: " + same[0] + " against " + elsewhere[0]);
  }

  /** {server cores, foreign cores} over a 2-s window while a backend of "postgres" is busy. */
  private static double[] windowWithALongQuery(String workloadDatabase) throws Exception {
    try (ProcessSampler sampler = sampler().countOtherClients(workloadDatabase);
        BusyQuery query = BusyQuery.start()) {
      Thread.sleep(300); // the backend is busy before the first reading
      sampler.sampleNow();
      sampler.startWindow();
      for (int i = 0; i < 10; i++) {
        Thread.sleep(200);
        sampler.sampleNow();
      }
      ResourceSummary window = sampler.stopWindow();
      return new double[] {
        (window.cpuUserPct() + window.cpuSysPct()) / 100, window.foreignCpuAvgCores()
      };
    }
  }

  /**
   * What an agent sends for the disk rule of a server on another host: the WAL disk's free space
   * plus pg_wal's size, as ServerDisks reads them here (within 64 MB: the server may write or
   * recycle a segment, and other files come and go, between the two readings).
   */
  @Test
  void aSampleCarriesTheWalDisksRoomAsServerDisksReadsIt() throws Exception {
    ServerDisks disks = ServerDisks.of(SharedPostgres.cluster().dataDir()).orElseThrow();
    try (ProcessSampler sampler = sampler().readWalRoom()) {
      long sampled = sampler.sampleNow().walRoomBytes();
      long read = disks.walFreeBytes() + disks.walBytes();
      assertTrue(disks.walBytes() >= 16L << 20, "pg_wal holds a segment: " + disks.walBytes());
      assertTrue(Math.abs(sampled - read) < 64L << 20, sampled + " against " + read);
    }
  }

  @Test
  void processesThatExitBetweenSamplesNeverGiveNegativeRates() throws Exception {
    List<ProcessSample> heard = new CopyOnWriteArrayList<>();
    try (ProcessSampler sampler = sampler()) {
      sampler.addListener(heard::add);
      List<Connection> conns = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        conns.add(SharedPostgres.connect());
        try (Statement st = conns.get(i).createStatement()) {
          st.execute("SELECT count(*) FROM generate_series(1, 300000)");
        }
      }
      ProcessSample with = sampler.sampleNow();
      for (Connection c : conns) {
        c.close();
      }
      Thread.sleep(300);
      ProcessSample without = sampler.sampleNow();
      assertTrue(without.processes() < with.processes(), with + " then " + without);
      for (ProcessSample s : List.of(with, without)) {
        assertTrue(s.cpuUserPct() >= 0 && s.cpuSysPct() >= 0, s.toString());
        assertTrue(s.readBytesPerSec() >= 0 && s.writeBytesPerSec() >= 0, s.toString());
      }
      assertEquals(2, heard.size(), "listeners hear every sample");
    }
  }

  @Test
  void samplesOnItsOwnEveryIntervalUntilClosed() throws Exception {
    List<ProcessSample> heard = new CopyOnWriteArrayList<>();
    ProcessSampler sampler = sampler();
    sampler.addListener(heard::add);
    sampler.start();
    Thread.sleep(1100);
    sampler.close();
    int count = heard.size();
    assertTrue(count >= 3, "samples in 1.1 s at 200 ms: " + count);
    Thread.sleep(400);
    assertEquals(count, heard.size(), "no samples after close");
  }

  @Test
  void aWindowOfASamplerProbingTheDiskCarriesItsSynchronousWriteRateAndLeavesNoFile(
      @TempDir Path dir) throws Exception {
    try (ProcessSampler sampler = sampler()) {
      sampler.probeDisk(new DiskProbe(dir));
      sampler.start();
      sampler.startWindow();
      Thread.sleep(1000);
      ResourceSummary probed = sampler.stopWindow();
      // a disk that takes an 8 kB synchronous write at all takes more than one a second
      assertTrue(probed.diskSyncWritesPerSec() > 1, probed.toString());
      sampler.probeDisk(null);
      sampler.startWindow();
      Thread.sleep(500);
      assertEquals(0, sampler.stopWindow().diskSyncWritesPerSec(), "no probe, no rate");
    }
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "the probe's file is removed after each burst");
    }
  }

  /**
   * The probe writes inside the window beside the server's own fsyncs, so a managed cluster's
   * windows run without it unless asked ({@code --disk-probe}), and then carry its rate.
   */
  @Test
  void aManagedClustersWindowsProbeTheDiskOnlyWhenAskedTo() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    assertEquals(0, window(cluster, 1000).diskSyncWritesPerSec(), "off by default");
    cluster.probeDiskInWindows(true);
    try {
      // 3 s: a loaded CI machine once gave a 1-s window a single sample, and so no rate
      ResourceSummary probed = window(cluster, 3000);
      assertTrue(probed.diskSyncWritesPerSec() > 1, probed.toString());
    } finally {
      cluster.probeDiskInWindows(false);
    }
  }

  private static ResourceSummary window(ManagedCluster cluster, long millis) throws Exception {
    try (ProcessSampler sampler = cluster.newSampler().orElseThrow()) {
      sampler.start();
      sampler.startWindow();
      Thread.sleep(millis);
      return sampler.stopWindow();
    }
  }

  /**
   * Summed RSS counts shared_buffers once per backend that touched them; PSS counts them once. With
   * 512MB of shared buffers holding about 300MB of tables read by 8 backends, RSS must exceed PSS
   * by more than twice the buffers.
   */
  @Test
  void summedRssExceedsPssByTheSharedBuffersEachBackendTouched() throws Exception {
    try (Connection admin = SharedPostgres.connect();
        Statement st = admin.createStatement()) {
      st.execute("ALTER SYSTEM SET shared_buffers = '512MB'");
    }
    SharedPostgres.cluster().restart();
    List<Connection> readers = new ArrayList<>();
    try (Connection admin = SharedPostgres.connect();
        Statement st = admin.createStatement()) {
      // Each table stays under a quarter of shared_buffers, so sequential scans read it into
      // shared buffers rather than through a small ring.
      for (int t = 1; t <= TABLES; t++) {
        st.execute(
            "CREATE UNLOGGED TABLE rss_pss_"
                + t
                + " AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 450000) g");
      }
      for (int i = 0; i < 8; i++) {
        Connection c = SharedPostgres.connect();
        readers.add(c);
        try (Statement r = c.createStatement()) {
          for (int t = 1; t <= TABLES; t++) {
            r.execute("SELECT count(*) FROM rss_pss_" + t);
          }
        }
      }
      try (ProcessSampler sampler = sampler()) {
        ProcessSample s = sampler.sampleNow();
        long gap = s.rssBytes() - s.pssBytes();
        System.out.printf(
            "RSS %d MiB, PSS %d MiB, RSS - PSS %d MiB over %d processes%n",
            s.rssBytes() / MIB, s.pssBytes() / MIB, gap / MIB, s.processes());
        assertTrue(gap > 2 * 512 * MIB, s.toString());
      }
    } finally {
      for (Connection c : readers) {
        c.close();
      }
      try (Connection admin = SharedPostgres.connect();
          Statement st = admin.createStatement()) {
        for (int t = 1; t <= TABLES; t++) {
          st.execute("DROP TABLE IF EXISTS rss_pss_" + t);
        }
      }
      SharedPostgres.resetSettings();
    }
  }
}
