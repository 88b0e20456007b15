package org.pgknob.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.ProcessSampler;
import org.pgknob.testing.SharedPostgres;

class GuardrailTest {
  private static final long MIB = 1L << 20;
  private static final String WORKLOAD = "pgknob-guardrail-test";

  /** How a workload query ended: its error's SQLState (or "ok") and when. */
  private record Ended(String sqlState, long epochMillis) {}

  @Test
  void stopsBigSortsWithinTwoSecondsOfCrossingTheLimitAndLeavesTheServerUp() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    ProcessSampler sampler =
        new ProcessSampler(cluster.postmasterPid().orElseThrow(), Duration.ofMillis(250));
    long limit = sampler.sampleNow().pssBytes() + 200 * MIB;
    AtomicReference<Guardrail.Trip> heard = new AtomicReference<>();
    List<CompletableFuture<Ended>> queries = new ArrayList<>();
    try (Guardrail guard =
        new Guardrail(
            cluster, "postgres", WORKLOAD, limit, Guardrail.Figure.PSS, 0, 0, heard::set)) {
      sampler.addListener(guard);
      sampler.start();
      for (int i = 0; i < 3; i++) {
        queries.add(CompletableFuture.supplyAsync(GuardrailTest::bigSort));
      }
      List<Ended> ended = new ArrayList<>();
      for (CompletableFuture<Ended> q : queries) {
        ended.add(q.get(120, TimeUnit.SECONDS));
      }
      sampler.close();

      assertTrue(guard.tripped(), "ended without tripping: " + ended);
      Guardrail.Trip trip = guard.trip().orElseThrow();
      assertEquals(trip, heard.get(), "the callback hears the trip");
      assertEquals(Status.MEMORY_GUARD, trip.status());
      assertEquals("PSS", trip.figure());
      assertTrue(trip.figureBytes() > limit && trip.limitBytes() == limit, trip.toString());
      assertTrue(trip.backendsTerminated() >= 1, trip.toString());
      assertTrue(trip.reason().contains("crossed the memory limit"), trip.reason());
      for (Ended e : ended) {
        assertEquals("57P01", e.sqlState(), "terminated by the guardrail: " + ended);
        long afterCrossing = e.epochMillis() - trip.epochMillis();
        assertTrue(afterCrossing < 2000, "query ended " + afterCrossing + " ms after crossing");
      }
    } finally {
      sampler.close();
    }
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      assertTrue(st.execute("SELECT 1"), "the server still answers");
    }
  }

  /**
   * The disk half on the real cluster's real disk: a reserve just above the free space the sampler
   * reads from the filesystem the server's data directory is on makes the next sample trip, as a
   * WAL that had grown into the reserve would, and the workload's query is terminated.
   */
  @Test
  void stopsTheWorkloadWhenTheServersDiskHasLessFreeSpaceThanTheReserve() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    ProcessSampler sampler =
        new ProcessSampler(cluster.postmasterPid().orElseThrow(), Duration.ofMillis(250));
    long free = sampler.sampleNow().diskFreeBytes();
    assertTrue(free > 0, "the sampler reads the data directory's disk: " + free);
    long reserve = free + 1024 * MIB;
    AtomicReference<Guardrail.Trip> heard = new AtomicReference<>();
    try (Guardrail guard =
        new Guardrail(
            cluster,
            "postgres",
            WORKLOAD,
            Long.MAX_VALUE,
            Guardrail.Figure.PSS,
            0,
            reserve,
            heard::set)) {
      CompletableFuture<Ended> query = CompletableFuture.supplyAsync(GuardrailTest::longSleep);
      Thread.sleep(500); // the query is running before the guardrail looks
      sampler.addListener(guard);
      sampler.start();
      Ended ended = query.get(60, TimeUnit.SECONDS);
      sampler.close();

      assertTrue(guard.tripped(), "ended without tripping: " + ended);
      Guardrail.Trip trip = guard.trip().orElseThrow();
      assertEquals(Status.DISK_GUARD, trip.status());
      assertEquals("disk free", trip.figure());
      assertTrue(trip.figureBytes() < reserve && trip.limitBytes() == reserve, trip.toString());
      assertTrue(trip.reason().startsWith("free space on the server's data or WAL disk fell to "));
      assertTrue(trip.backendsTerminated() >= 1, trip.toString());
      assertEquals("57P01", ended.sqlState(), "terminated by the guardrail");
    } finally {
      sampler.close();
    }
  }

  /** A reserve of 0 never trips, whatever the disk holds. */
  @Test
  void aReserveOfZeroNeverTrips() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    ProcessSampler sampler = new ProcessSampler(cluster.postmasterPid().orElseThrow());
    try (Guardrail guard =
        new Guardrail(
            cluster, "postgres", WORKLOAD, Long.MAX_VALUE, Guardrail.Figure.PSS, 0, 0, t -> {})) {
      guard.accept(sampler.sampleNow());
      guard.accept(sampler.sampleNow());
      assertTrue(!guard.tripped(), guard.trip().toString());
    }
  }

  private static Ended longSleep() {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute("SET application_name = '" + WORKLOAD + "'");
      st.execute("SELECT pg_sleep(30)");
      return new Ended("ok", System.currentTimeMillis());
    } catch (SQLException e) {
      return new Ended(e.getSQLState(), System.currentTimeMillis());
    }
  }

  /** A sort held in memory: about 400 MB per backend with work_mem 1GB. */
  private static Ended bigSort() {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute("SET application_name = '" + WORKLOAD + "'");
      st.execute("SET work_mem = '1GB'");
      st.execute("SELECT g FROM generate_series(1, 5000000) g ORDER BY random() OFFSET 4999999");
      return new Ended("ok", System.currentTimeMillis());
    } catch (SQLException e) {
      return new Ended(e.getSQLState(), System.currentTimeMillis());
    }
  }
}
