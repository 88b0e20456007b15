package org.pgknob.workload.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;

class CommandObjectiveTest {
  private static CommandOutcome run(String command) {
    return new CommandObjective(command, "value", Duration.ofSeconds(20))
        .run(Map.of("x", 3L, "mode", "fast"));
  }

  @Test
  void passesTheConfigurationAsJsonAndReadsTheValue() {
    CommandOutcome o =
        run(
            "python3 -c 'import json,sys; c=json.load(sys.stdin); print(json.dumps({\"value\": c[\"x\"] * 2 + (1 if c[\"mode\"] == \"fast\" else 0), \"tps\": 5}))'");
    assertTrue(o.isOk(), o.reason());
    assertEquals(7.0, o.value("value").getAsDouble());
    assertEquals(5.0, o.value("tps").getAsDouble());
  }

  @Test
  void reportedFailureIsAFailedTrialWithItsReason() {
    CommandOutcome o = run("echo '{\"status\": \"failed\", \"reason\": \"out of memory\"}'");
    assertFalse(o.isOk());
    assertEquals("out of memory", o.reason());
  }

  @Test
  void nonZeroExitIsAFailedTrialWithTheStderrTail() {
    CommandOutcome o = run("echo 'disk full' >&2; exit 3");
    assertFalse(o.isOk());
    assertTrue(o.reason().contains("status 3") && o.reason().contains("disk full"), o.reason());
  }

  @Test
  void outputThatIsNotJsonIsAFailedTrial() {
    CommandOutcome o = run("echo 'throughput: 12'");
    assertTrue(
        o.reason().contains("not a JSON object") && o.reason().contains("throughput: 12"),
        o.reason());
  }

  @Test
  void nanOrInfiniteValueIsAFailedTrial() {
    assertTrue(run("echo '{\"value\": NaN}'").reason().contains("NaN"));
    assertTrue(run("echo '{\"value\": Infinity}'").reason().contains("Infinity"));
    assertTrue(run("echo '{\"value\": \"12\"}'").reason().contains("no numeric"));
  }

  @Test
  void aKeyGivenTwiceIsAFailedTrialNamingIt() {
    CommandOutcome o = run("echo '{\"value\": 1, \"value\": 900}'");
    assertFalse(o.isOk());
    assertEquals("the command's output gives 'value' twice", o.reason());
  }

  @Test
  void logLinesBeforeTheJsonAreTolerated() {
    CommandOutcome o = run("echo 'warming up'; echo '{\"value\": 4.5}'");
    assertEquals(4.5, o.value("value").getAsDouble());
  }

  @Test
  void commandNotFoundIsAUserError() {
    PgknobException e =
        assertThrows(PgknobException.class, () -> run("no-such-benchmark-cmd --fast"));
    assertTrue(e.getMessage().contains("command not found"), e.getMessage());
  }

  @Test
  void overrunningTheTimeoutIsATimedOutTrial() {
    CommandOutcome o =
        new CommandObjective("sleep 30", "value", Duration.ofMillis(300)).run(Map.of());
    assertTrue(o.timedOut());
  }
}
