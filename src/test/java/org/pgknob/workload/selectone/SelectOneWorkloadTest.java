package org.pgknob.workload.selectone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.session.SessionInputs;
import org.pgknob.session.TinyInputs;
import org.pgknob.testing.Cli;
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

  /**
   * tune's --workload and --users reach it through the registry, with no change to the command
   * line; its help and an unknown name list it among the known, and another workload's option is
   * refused.
   */
  @Test
  void tuneTakesItByNameWithNoChangeToTheCommandLine() {
    List<String> tune =
        new ArrayList<>(
            List.of("tune", "--dry-run", "--budget", "16", "--rampup", "1s", "--duration", "2s"));
    tune.addAll(SharedPostgres.targetArguments());
    Ran planned = Ran.of(tune, "--workload", "select-one", "--users", "3");
    assertEquals(0, planned.exit(), planned.err());
    assertTrue(
        planned.out().contains("\nworkload: select-one, 3 users, 1 s ramp-up, 2 s windows\n"),
        planned.out());

    Ran foreign = Ran.of(tune, "--workload", "select-one", "--warehouses", "3");
    assertEquals(1, foreign.exit());
    assertTrue(
        foreign
            .err()
            .contains("--warehouses is an option of tprocc, but the workload is select-one"),
        foreign.err());

    Ran help = Ran.of(List.of("tune", "--help"));
    assertTrue(help.out().contains(" select-one,"), help.out());

    Ran unknown = Ran.of(tune, "--workload", "select-two");
    assertEquals(1, unknown.exit());
    assertTrue(unknown.err().contains("unknown workload 'select-two'; known: "), unknown.err());
    assertTrue(unknown.err().contains("select-one"), unknown.err());
  }

  /** One run of pgknob's command line: exit code and what it printed. */
  private record Ran(int exit, String out, String err) {
    static Ran of(List<String> args, String... more) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      List<String> all = new ArrayList<>(args);
      all.addAll(List.of(more));
      int exit = Cli.run(out, err, all);
      return new Ran(exit, out.toString(), err.toString());
    }
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
