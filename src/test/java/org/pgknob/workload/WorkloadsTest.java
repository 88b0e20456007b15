package org.pgknob.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.workload.command.CommandSpec;
import org.pgknob.workload.pgbench.PgbenchScript;
import org.pgknob.workload.pgbench.PgbenchSpec;
import org.pgknob.workload.tprocc.TproccSpec;

/** The registry: every built-in workload by name, its defaults, and its spec back from its map. */
class WorkloadsTest {
  @Test
  void knowsTheBuiltInWorkloads() {
    assertTrue(
        Workloads.names()
            .containsAll(List.of("command", "pgbench-select", "pgbench-tpcb", "tprocc")),
        Workloads.names().toString());
  }

  @Test
  void anUnknownNameListsTheKnownOnesInOneLine() {
    PgknobException e = assertThrows(PgknobException.class, () -> Workloads.spec("tpcc", Map.of()));
    assertTrue(
        e.getMessage()
            .startsWith("unknown workload 'tpcc'; known: command, pgbench-select, pgbench-tpcb,"),
        e.getMessage());
    assertTrue(e.getMessage().contains(", tprocc"), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"));
  }

  @Test
  void missingOptionsTakeTheWorkloadsDefaults() {
    assertEquals(new TproccSpec(2, 4, false), Workloads.spec("tprocc", Map.of()));
    assertEquals(
        new PgbenchSpec(PgbenchScript.SELECT_ONLY, 10, 4),
        Workloads.spec("pgbench-select", Map.of()));
  }

  @Test
  void everySpecComesBackFromItsMap() {
    for (WorkloadSpec spec :
        List.of(
            new TproccSpec(3, 5, true),
            new PgbenchSpec(PgbenchScript.TPCB_LIKE, 2, 8),
            new PgbenchSpec(PgbenchScript.SELECT_ONLY, 1, 1),
            new CommandSpec("sh bench.sh", "app"))) {
      assertEquals(spec, Workloads.fromMap(spec.toMap()));
    }
  }

  @Test
  void badValuesNameTheOption() {
    PgknobException e =
        assertThrows(
            PgknobException.class, () -> Workloads.spec("pgbench-tpcb", Map.of("scale", 0)));
    assertEquals("--scale must be between 1 and 20000, but got 0", e.getMessage());
    e = assertThrows(PgknobException.class, () -> Workloads.spec("tprocc", Map.of("users", 0)));
    assertEquals("--users must be at least 1, got 0", e.getMessage());
    e = assertThrows(PgknobException.class, () -> Workloads.spec("command", Map.of()));
    assertEquals("--workload command needs --workload-cmd", e.getMessage());
  }
}
