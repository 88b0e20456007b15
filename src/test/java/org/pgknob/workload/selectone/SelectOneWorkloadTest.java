package org.pgknob.workload.selectone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.session.SessionInputs;
import org.pgknob.session.TinyInputs;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.WorkloadSpec;
import org.pgknob.workload.Workloads;

/**
 * The proof that a workload is a plug-in: {@code SELECT 1}, in this folder and one registration
 * line, is found by the registry, kept in session.json, and runs on the real server.
 */
class SelectOneWorkloadTest {
  @Test
  void theRegistryFindsItByItsOneRegistrationLine() {
    assertTrue(Workloads.names().contains("select-one"), Workloads.names().toString());
    assertEquals(new SelectOneSpec(3), Workloads.spec("select-one", Map.of("users", 3)));
  }

  @Test
  void aSessionKeepsItInSessionJson() {
    Map<String, Object> m = new LinkedHashMap<>(TinyInputs.of("12", List.of("reload")).toMap());
    m.put("workload", new SelectOneSpec(2).toMap());
    SessionInputs inputs = SessionInputs.fromMap(m);
    assertEquals(new SelectOneSpec(2), inputs.workload());
    assertEquals(inputs, SessionInputs.fromMap(inputs.toMap()));
  }

  @Test
  void runsOnTheRealServerWithTheSharedDriver() {
    WorkloadSpec spec = Workloads.spec("select-one", Map.of("users", 2));
    WorkloadResult r = spec.create(1, 2).run(SharedPostgres.cluster(), RunListener.NONE);
    assertTrue(r.committed() > 100, "SELECT 1 in 2 s: " + r.committed());
    assertTrue(r.tpccFigures().isEmpty());
    assertEquals(0, r.errors());
  }
}
