package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.Cli;

/**
 * The workload options of tune and compare: a bad choice is one line on stderr, exit 1, before any
 * server is started or folder created.
 */
class WorkloadOptionsTest {
  @TempDir Path runs;

  private final StringWriter err = new StringWriter();

  private int tune(String... extra) {
    String[] args = new String[extra.length + 3];
    args[0] = "tune";
    args[1] = "--out";
    args[2] = runs.resolve("out").toString();
    System.arraycopy(extra, 0, args, 3, extra.length);
    return Cli.run(new StringWriter(), err, args);
  }

  /** select-one is the tests' own plug-in (workload/selectone), registered for every test. */
  @Test
  void anUnknownWorkloadListsTheKnownOnes() {
    assertEquals(1, tune("--workload", "tpcc"));
    assertEquals(
        "pgknob: unknown workload 'tpcc'; known: command, pgbench-select, pgbench-tpcb,"
            + " select-one, tprocc (give --workload one of them)\n",
        err.toString());
    assertEquals(false, Files.exists(runs.resolve("out")));
  }

  @Test
  void aMisspeltWorkloadIsNamedBeforeItsOptionsAreJudged() {
    assertEquals(1, tune("--workload", "pgbench", "--scale", "2"));
    assertEquals(
        "pgknob: unknown workload 'pgbench'; known: command, pgbench-select, pgbench-tpcb,"
            + " select-one, tprocc (give --workload one of them)\n",
        err.toString());
  }

  @Test
  void anOptionOfAnotherWorkloadIsRefused() {
    assertEquals(1, tune("--workload", "pgbench-select", "--warehouses", "4"));
    assertEquals(
        "pgknob: --warehouses is an option of tprocc, but the workload is pgbench-select"
            + " (leave --warehouses out, or choose tprocc with --workload)\n",
        err.toString());
  }

  @Test
  void scaleIsPgbenchs() {
    assertEquals(1, tune("--scale", "4"));
    assertEquals(
        "pgknob: --scale is an option of pgbench-tpcb or pgbench-select, but the workload is"
            + " tprocc (leave --scale out, or choose pgbench-tpcb or pgbench-select with"
            + " --workload)\n",
        err.toString());
  }

  @Test
  void theCommandOptionImpliesTheCommandWorkloadWhichHasNoUsers() {
    assertEquals(1, tune("--workload-cmd", "true", "--vus", "8"));
    assertEquals(
        "pgknob: --users sets a built-in workload's connections, but the workload is your command"
            + " (leave --users out: your command opens its own connections)\n",
        err.toString());
  }
}
