package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.workload.command.CommandSpec;
import org.pgknob.workload.tprocc.TproccSpec;

/**
 * The workload in session.json: written as a "workload" map, and read back also from sessions
 * recorded before, which kept TPROC-C's options at the top level and a command in "workloadCommand"
 * (the maps below are such sessions' inputs, key for key).
 */
class SessionInputsWorkloadTest {
  /** The inputs of a TPROC-C session as pgknob wrote them before workload specs. */
  static Map<String, Object> recordedBefore(String workloadCommand) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("warehouses", 3);
    m.put("virtualUsers", 6);
    m.put("rampupSeconds", 5);
    m.put("windowSeconds", 15);
    m.put("allWarehouses", true);
    m.put("budget", "12m");
    m.put("tracks", List.of("reload", "restart"));
    m.put("objective", "tps");
    m.put("spaceFile", "");
    m.put("rulesFile", "");
    m.put("allowDurabilityTradeoff", false);
    m.put("ramBytes", 0);
    m.put("seed", 1);
    m.put("surrogate", "gp");
    m.put("applyBest", false);
    m.put("workloadCommand", workloadCommand);
    return m;
  }

  @Test
  void aTproccSessionRecordedBeforeLoadsWithItsSizeAndUsers() {
    SessionInputs inputs = SessionInputs.fromMap(recordedBefore(""));
    assertEquals(new TproccSpec(3, 6, true), inputs.workload());
    assertEquals(15, inputs.windowSeconds());
  }

  @Test
  void aCommandSessionRecordedBeforeLoadsAsTheCommandWorkload() {
    SessionInputs inputs = SessionInputs.fromMap(recordedBefore("sh bench.sh"));
    assertEquals(new CommandSpec("sh bench.sh", "postgres"), inputs.workload());
  }

  @Test
  void theWorkloadMapRoundTripsAndReplacesTheOldKeys() {
    Map<String, Object> m = recordedBefore("");
    m.put("workload", new TproccSpec(2, 8, false).toMap());
    SessionInputs inputs = SessionInputs.fromMap(m);
    assertEquals(new TproccSpec(2, 8, false), inputs.workload());
    Map<String, Object> written = inputs.toMap();
    assertEquals(
        Map.of("name", "tprocc", "warehouses", 2, "users", 8, "allWarehouses", false),
        written.get("workload"));
    assertEquals(inputs, SessionInputs.fromMap(written));
    assertEquals(
        Map.of(
            "name", "tprocc",
            "warehouses", 2,
            "allWarehouses", false,
            "users", 8,
            "rampupSeconds", 5,
            "windowSeconds", 15),
        inputs.workloadDescription());
  }
}
