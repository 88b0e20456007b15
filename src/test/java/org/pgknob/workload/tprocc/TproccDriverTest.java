package org.pgknob.workload.tprocc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.TransactionProfile;
import org.pgknob.workload.WorkloadResult;

/** Short real runs: 2 users on 1 warehouse, windows of a few seconds. */
class TproccDriverTest {
  private static WorkloadResult result;
  private static final List<String> phases = new ArrayList<>();
  private static final List<SecondSample> heard = new ArrayList<>();

  @BeforeAll
  static void runOnce() {
    TproccTestDatabase.reset();
    TproccWorkload workload = new TproccWorkload(TproccTestDatabase.SETTINGS.withTimes(2, 4));
    result =
        workload.run(
            SharedPostgres.cluster(),
            new RunListener() {
              @Override
              public void phase(String name) {
                phases.add(name);
              }

              @Override
              public void second(SecondSample sample) {
                heard.add(sample);
              }
            });
  }

  @Test
  void runsEveryTransactionTypeInHammerDbsMix() {
    Map<String, Long> calls =
        result.tpccFigures().orElseThrow().transactions().stream()
            .collect(Collectors.toMap(TransactionProfile::name, TransactionProfile::calls));
    long total = calls.values().stream().mapToLong(Long::longValue).sum();
    assertTrue(total > 200, "calls in 4 s: " + total);
    assertShare(calls.get("neword"), total, 10.0 / 23);
    assertShare(calls.get("payment"), total, 10.0 / 23);
    assertTrue(calls.get("delivery") > 0 && calls.get("slev") > 0 && calls.get("ostat") > 0);
    assertEquals(0, result.errors());
    assertEquals(result.committed() + tpcc().rollbacks(), total);
    assertEquals(result.committed(), result.overall().count() - tpcc().rollbacks());
  }

  @Test
  void hammerDbsTpmAndNopmAgreeWithTheDriversCounts() {
    Map<String, Double> extra = result.extra();
    double serverNewOrders = extra.get("serverNewOrders");
    double driverNewOrders = extra.get("driverNewOrders");
    assertTrue(
        Math.abs(serverNewOrders - driverNewOrders) <= Math.max(3, 0.02 * driverNewOrders),
        "new orders: server " + serverNewOrders + ", driver " + driverNewOrders);
    // Every call is one server transaction; each user adds one statistics flush at the end, the
    // monitor a read or two.
    double driverCalls = result.committed() + tpcc().rollbacks() + result.errors();
    double serverTransactions = extra.get("serverTransactions");
    assertTrue(
        Math.abs(serverTransactions - driverCalls) <= Math.max(6, 0.02 * driverCalls),
        "transactions: server " + serverTransactions + ", driver " + driverCalls);
    assertEquals(serverTransactions * 60 / result.windowSeconds(), tpcc().tpm(), 1e-6);
    assertEquals(result.committed() / result.windowSeconds(), result.tps(), 1e-9);
  }

  @Test
  void keepsATimelineOfEverySecondAndAccountsForTheCheckpoint() {
    assertTrue(result.timeline().size() >= 5, "seconds: " + result.timeline().size());
    assertTrue(result.timeline().stream().anyMatch(SecondSample::measured));
    // Two seconds of ramp-up leave at least one unmeasured second even on a loaded machine.
    assertTrue(
        result.timeline().stream().anyMatch(s -> !s.measured()),
        "no unmeasured second in " + result.timeline());
    assertEquals(
        List.of(
            "connect", "rampup", "checkpoint before the window", "window", "stop", "checkpoint"),
        phases);
    assertEquals(result.timeline().size(), heard.size());
    // The window is measured, not assumed: what was asked (to the clock's grain), a little more on
    // a busy box.
    assertTrue(
        result.windowSeconds() > 3.9 && result.windowSeconds() < 6.5,
        "window seconds: " + result.windowSeconds());
    assertTrue(result.checkpoint().afterWindowSeconds() > 0);
    assertTrue(result.checkpoint().beforeWindowSeconds() > 0, "a CHECKPOINT ran before the window");
    assertTrue(result.checkpoint().autovacuumsInWindow() >= 0);
    assertTrue(result.checkpoint().afterWindowBuffers() > 0, "the window dirtied buffers");
    assertTrue(result.tpsWithCheckpoint() < result.tps());
  }

  @Test
  void aRunKeepsTheConsistencyConditions() throws SQLException {
    try (Connection c = TproccTestDatabase.connect()) {
      for (ConsistencyCheck.Condition condition : ConsistencyCheck.run(c)) {
        assertTrue(condition.holds(), condition.rule() + ": " + condition.violations());
      }
    }
  }

  @Test
  void resetRestoresThePristineRowCounts() throws SQLException {
    TproccWorkload workload = new TproccWorkload(TproccTestDatabase.SETTINGS);
    workload.run(SharedPostgres.cluster(), RunListener.NONE);
    double seconds = workload.reset(SharedPostgres.cluster());
    assertTrue(seconds > 0);
    try (Connection c = TproccTestDatabase.connect()) {
      assertEquals(30_000, TproccTestDatabase.queryLong(c, "SELECT count(*) FROM orders"));
      assertEquals(9_000, TproccTestDatabase.queryLong(c, "SELECT count(*) FROM new_order"));
      assertEquals(30_000, TproccTestDatabase.queryLong(c, "SELECT count(*) FROM history"));
      assertEquals(
          30_010, TproccTestDatabase.queryLong(c, "SELECT sum(d_next_o_id) FROM district"));
    }
  }

  @Test
  void refusesMoreUsersThanTheServerAllowsBeforeStarting() {
    TproccWorkload workload = new TproccWorkload(TproccTestDatabase.SETTINGS.withUsers(500));
    PgknobException e =
        assertThrows(
            PgknobException.class, () -> workload.run(SharedPostgres.cluster(), RunListener.NONE));
    assertTrue(e.getMessage().contains("max_connections"), e.getMessage());
  }

  @Test
  void endsWithAClearErrorWhenTheServerDropsTheConnections() {
    TproccWorkload workload = new TproccWorkload(TproccTestDatabase.SETTINGS.withTimes(0, 30));
    long started = System.nanoTime();
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () ->
                workload.run(
                    SharedPostgres.cluster(),
                    new RunListener() {
                      @Override
                      public void second(SecondSample sample) {
                        if (sample.second() == 2) {
                          terminateUsers();
                        }
                      }
                    }));
    assertTrue(e.getMessage().contains("stopped answering"), e.getMessage());
    assertTrue((System.nanoTime() - started) / 1e9 < 20, "ended promptly");
  }

  private static void terminateUsers() {
    try (Connection c = SharedPostgres.connect();
        Statement st = c.createStatement()) {
      st.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
              + " WHERE application_name = 'pgknob tprocc'");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static TpccFigures tpcc() {
    return result.tpccFigures().orElseThrow();
  }

  private static void assertShare(long calls, long total, double expected) {
    double share = (double) calls / total;
    assertTrue(
        Math.abs(share - expected) < 0.08,
        "share " + share + " should be near " + expected + " (" + calls + " of " + total + ")");
  }
}
