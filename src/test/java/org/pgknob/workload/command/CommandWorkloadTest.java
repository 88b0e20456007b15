package org.pgknob.workload.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.WorkloadResult;

class CommandWorkloadTest {
  @Test
  void runsTheCommandWithTheServerInLibpqVariablesAndAPrivatePasswordFile() {
    // The command reports success only if it can see the server and a password file of mode 600,
    // and no password in its environment.
    String command =
        "cat > /dev/null;"
            + " test -n \"$PGHOST\" && test -n \"$PGPORT\" && test \"$PGDATABASE\" = postgres"
            + " && test \"$(stat -c %a \"$PGPASSFILE\")\" = 600 && test -z \"$PGPASSWORD\""
            + " && echo '{\"value\": 123.5, \"latency_ms\": 2.5, \"nopm\": 900}'";
    CommandWorkload workload = new CommandWorkload(command, "postgres", Duration.ofSeconds(30));
    WorkloadResult result = workload.run(SharedPostgres.cluster(), RunListener.NONE);
    assertEquals(123.5, result.tps(), 1e-9);
    assertEquals(2.5, result.overall().avgMs(), 1e-9);
    assertEquals(900, result.tpccFigures().orElseThrow().nopm(), 1e-9);
    assertTrue(result.tpsWithCheckpoint() <= result.tps());
  }

  @Test
  void aFailingCommandFailsTheRunWithItsReason() {
    CommandWorkload workload =
        new CommandWorkload(
            "echo '{\"status\": \"failed\", \"reason\": \"disk full\"}'",
            "postgres",
            Duration.ofSeconds(30));
    PgknobException e =
        assertThrows(
            PgknobException.class, () -> workload.run(SharedPostgres.cluster(), RunListener.NONE));
    assertTrue(e.getMessage().contains("disk full"), e.getMessage());
  }
}
