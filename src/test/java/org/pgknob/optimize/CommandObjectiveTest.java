package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;

class CommandObjectiveTest {
  private static Outcome run(String command) {
    return new CommandObjective(command, "value", Duration.ofSeconds(20))
        .run(Map.of("x", 3L, "mode", "fast"));
  }

  @Test
  void passesTheConfigurationAsJsonAndReadsTheValue() {
    Outcome o =
        run(
            "python3 -c 'import json,sys; c=json.load(sys.stdin); print(json.dumps({\"value\": c[\"x\"] * 2 + (1 if c[\"mode\"] == \"fast\" else 0), \"tps\": 5}))'");
    assertTrue(o.isOk(), o.reason());
    assertEquals(7.0, o.value("value").getAsDouble());
    assertEquals(5.0, o.value("tps").getAsDouble());
  }

  @Test
  void reportedFailureIsAFailedTrialWithItsReason() {
    Outcome o = run("echo '{\"status\": \"failed\", \"reason\": \"out of memory\"}'");
    assertEquals(Status.CRASHED, o.status());
    assertEquals("out of memory", o.reason());
  }

  @Test
  void nonZeroExitIsAFailedTrialWithTheStderrTail() {
    Outcome o = run("echo 'disk full' >&2; exit 3");
    assertEquals(Status.CRASHED, o.status());
    assertTrue(o.reason().contains("status 3") && o.reason().contains("disk full"), o.reason());
  }

  @Test
  void outputThatIsNotJsonIsAFailedTrial() {
    Outcome o = run("echo 'throughput: 12'");
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
    Outcome o = run("echo '{\"value\": 1, \"value\": 900}'");
    assertEquals(Status.CRASHED, o.status());
    assertEquals("the command's output gives 'value' twice", o.reason());
  }

  @Test
  void logLinesBeforeTheJsonAreTolerated() {
    Outcome o = run("echo 'warming up'; echo '{\"value\": 4.5}'");
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
    Outcome o = new CommandObjective("sleep 30", "value", Duration.ofMillis(300)).run(Map.of());
    assertEquals(Status.TIMEOUT, o.status());
  }
}
