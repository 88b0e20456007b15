package org.pgknob.workload.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.MarkedDatabases;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.Workloads;

/** pgbench's scripts at scale 1 on the real server: build on first use, reset, short windows. */
class PgbenchWorkloadTest {
  private static final List<String> phasesBuilt = new ArrayList<>();
  private static Target server;

  @BeforeAll
  static void buildOnce() {
    server = SharedPostgres.cluster();
    try (Workload w = Workloads.spec("pgbench-tpcb", Map.of("scale", 1, "users", 2)).create(1, 2)) {
      w.prepare(server, recording(phasesBuilt));
    }
  }

  @Test
  void buildsPgbenchsTablesAtTheScaleWithAProgressBarAndMarksBothDatabases() throws SQLException {
    assertTrue(phasesBuilt.contains("generate scale 1"), phasesBuilt.toString());
    try (Connection c = server.connect("pgbench_s1")) {
      assertEquals(100_000, count(c, "SELECT count(*) FROM pgbench_accounts"));
      assertEquals(10, count(c, "SELECT count(*) FROM pgbench_tellers"));
      assertEquals(1, count(c, "SELECT count(*) FROM pgbench_branches"));
      assertEquals(
          1, count(c, "SELECT count(*) FROM pg_indexes WHERE indexname = 'pgbench_accounts_pkey'"));
    }
    try (Connection c = server.connect("postgres")) {
      MarkedDatabases dbs = PgbenchMarks.on(c);
      assertEquals(PgbenchMarks.FORMAT.live(1), dbs.mark("pgbench_s1").orElseThrow());
      assertEquals(PgbenchMarks.FORMAT.pristine(1), dbs.mark("pgbench_s1_pristine").orElseThrow());
    }
  }

  @Test
  void tpcbRunMeasuresTheWindowAndAResetPutsTheDataBack() throws SQLException {
    Workload w = Workloads.spec("pgbench-tpcb", Map.of("scale", 1, "users", 2)).create(2, 2);
    try (w) {
      w.reset(server);
      List<String> phases = new ArrayList<>();
      List<SecondSample> seconds = new ArrayList<>();
      WorkloadResult r = w.run(server, listener(phases, seconds));

      assertEquals(
          List.of(
              "connect", "rampup", "checkpoint before the window", "window", "stop", "checkpoint"),
          phases);
      assertTrue(
          r.checkpoint().beforeWindowSeconds() > 0, "the same checkpoint account as TPROC-C");
      assertTrue(r.committed() > 50, "committed in 2 s: " + r.committed());
      assertEquals(r.committed() / r.windowSeconds(), r.tps(), 1e-9);
      assertTrue(r.tpsWithCheckpoint() <= r.tps());
      assertTrue(r.tpccFigures().isEmpty(), "no NOPM, TPM or TPC-C profile for pgbench");
      assertEquals(r.committed(), r.overall().count());
      assertTrue(r.overall().p95Ms() >= r.overall().p50Ms() && r.overall().p50Ms() > 0);
      assertTrue(seconds.stream().anyMatch(SecondSample::measured), seconds.toString());
      assertTrue(seconds.stream().anyMatch(s -> !s.measured()), "ramp-up seconds are not measured");
      try (Connection c = server.connect("pgbench_s1")) {
        long history = count(c, "SELECT count(*) FROM pgbench_history");
        assertTrue(history >= r.committed(), history + " rows for " + r.committed());
      }

      w.reset(server);
      try (Connection c = server.connect("pgbench_s1")) {
        assertEquals(0, count(c, "SELECT count(*) FROM pgbench_history"));
        assertEquals(0, count(c, "SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts"));
      }
    }
  }

  @Test
  void selectOnlyWritesNothing() throws SQLException {
    Workload w = workload("pgbench-select");
    try (w) {
      w.reset(server);
      WorkloadResult r = w.run(server, RunListener.NONE);
      assertTrue(r.committed() > 200, "committed in 2 s: " + r.committed());
      assertTrue(r.tpccFigures().isEmpty());
      assertEquals(0, r.errors());
      try (Connection c = server.connect("pgbench_s1")) {
        assertEquals(0, count(c, "SELECT count(*) FROM pgbench_history"));
      }
    }
  }

  /**
   * A trial that needs a restart: the workload's pooled connections from the run before are gone,
   * and the next run on the same workload (the same pool) gets new ones with no reconnect code.
   */
  @Test
  void theSameWorkloadRunsAgainAfterARestartOnFreshPooledConnections() {
    Workload w = Workloads.spec("pgbench-select", Map.of("scale", 1, "users", 2)).create(0, 1);
    try (w) {
      w.reset(server);
      assertTrue(w.run(server, RunListener.NONE).committed() > 0);
      SharedPostgres.cluster().restart();
      WorkloadResult again = w.run(server, RunListener.NONE);
      assertTrue(again.committed() > 0, "committed after the restart: " + again.committed());
      assertEquals(0, again.errors());
    }
  }

  /**
   * Closing the workload at the end of a session closes its pool's idle connections at once: they
   * would otherwise stay on the server for the pool's idle timeout.
   */
  @Test
  void aClosedWorkloadLeavesNoConnectionOnTheServer() throws SQLException {
    Workload w = Workloads.spec("pgbench-select", Map.of("scale", 1, "users", 2)).create(0, 1);
    try (w) {
      assertTrue(w.run(server, RunListener.NONE).committed() > 0);
      assertTrue(
          driverConnections() > 0, "the pool keeps the run's connections idle until it is closed");
    }
    assertEquals(0, driverConnections());
  }

  /** The backends of pgknob's pgbench driver on the server, every workload's (pg_stat_activity). */
  private static long driverConnections() throws SQLException {
    try (Connection c = server.connect("postgres")) {
      return count(
          c,
          "SELECT count(*) FROM pg_stat_activity WHERE application_name = '"
              + PgbenchWorkload.APPLICATION_NAME
              + "'");
    }
  }

  @Test
  void neverBuildsIntoResetsOrDropsADatabaseItDidNotMark() throws SQLException {
    try (Connection c = server.connect("postgres");
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS pgbench_s2");
      st.execute("CREATE DATABASE pgbench_s2");
      st.execute("COMMENT ON DATABASE pgbench_s2 IS 'my own pgbench'");
    }
    Workload w = Workloads.spec("pgbench-select", Map.of("scale", 2)).create(0, 1);
    PgknobException e =
        assertThrows(PgknobException.class, () -> w.prepare(server, Progress.SILENT));
    assertTrue(e.getMessage().contains("pgknob did not create it"), e.getMessage());
    assertThrows(PgknobException.class, () -> w.reset(server));
    try (Connection c = server.connect("postgres")) {
      assertEquals(1, count(c, "SELECT count(*) FROM pg_database WHERE datname = 'pgbench_s2'"));
      assertFalse(PgbenchMarks.on(c).mark("pgbench_s2_pristine").isPresent());
    }
  }

  private static Workload workload(String name) {
    return Workloads.spec(name, Map.of("scale", 1, "users", 2)).create(1, 2);
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static Progress recording(List<String> phases) {
    return new Progress() {
      @Override
      public void begin(String phase, long totalUnits, String unit) {
        phases.add(phase);
      }

      @Override
      public void advance(long units) {}

      @Override
      public void end() {}
    };
  }

  private static RunListener listener(List<String> phases, List<SecondSample> seconds) {
    return new RunListener() {
      @Override
      public void phase(String name) {
        phases.add(name);
      }

      @Override
      public void second(SecondSample sample) {
        seconds.add(sample);
      }
    };
  }
}
