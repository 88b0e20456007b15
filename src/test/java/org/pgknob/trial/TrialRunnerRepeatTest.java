package org.pgknob.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.pgknob.runs.Track;
import org.pgknob.testing.BusyQuery;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.tprocc.TproccTestDatabase;
import org.pgknob.workload.tprocc.TproccWorkload;

/**
 * Real TPROC-C trials on the shared cluster while another client's query keeps one of the host's
 * cores busy (a loop in the database {@code postgres}, which is not the workload's) through the
 * first window: the trial's window is disturbed, and it either runs again once the query has ended
 * or, when the host stays busy for the longest wait, stands as it was.
 */
class TrialRunnerRepeatTest {
  private static final int WINDOW_SECONDS = 4;
  private static final Duration TRIAL_TIMEOUT = Duration.ofMinutes(5);

  private BusyQuery busy;

  @AfterEach
  void endTheBusyQuery() throws Exception {
    if (busy != null) {
      busy.close(); // waits for its end
    }
  }

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aWindowAnotherClientDisturbedRunsAgainOnceTheHostIsQuietAndTheFirstIsSetAside() {
    TproccTestDatabase.built();
    Heard heard = new Heard(9);
    TrialResult result =
        runner(DisturbedRepeat.waitingAtMost(Duration.ofSeconds(60))).run(request(), heard);

    assertTrue(result.isOk(), result.reason());
    DisturbedWindow setAside = result.disturbedWindow();
    assertNotNull(setAside, "the first window was set aside");
    assertTrue(setAside.foreignCpuAvgCores() > 0.25, "the busy query: " + setAside);
    assertTrue(setAside.tps() > 0);
    assertTrue(setAside.quietWaitSeconds() >= QuietWait.QUIET_SAMPLES - 1, setAside.toString());
    assertFalse(result.resources().disturbedByOtherProcesses(), result.resources().toString());
    assertTrue(result.timingsSeconds().containsKey("rerun"), result.timingsSeconds().toString());
    assertEquals(2, heard.windows, "two windows ran");
    assertEquals(2, heard.lines.size(), heard.lines.toString());
    assertTrue(heard.lines.get(0).startsWith("other processes used "), heard.lines.get(0));
    assertTrue(heard.lines.get(1).startsWith("quiet after "), heard.lines.get(1));
  }

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aHostBusyForTheLongestWaitKeepsTheDisturbedWindowAndStopsTheNextWaits() {
    TproccTestDatabase.built();
    DisturbedRepeat repeat = DisturbedRepeat.waitingAtMost(Duration.ofSeconds(3));
    Heard heard = new Heard(16);
    TrialResult result = runner(repeat).run(request(), heard);

    assertTrue(result.isOk(), result.reason());
    assertTrue(result.resources().disturbedByOtherProcesses(), result.resources().toString());
    assertNull(result.disturbedWindow());
    assertEquals(1, heard.windows);
    assertTrue(heard.lines.get(1).startsWith("the host stayed busy for 3 s"), heard.lines.get(1));
    double waited = result.timingsSeconds().get("quietWait");
    assertTrue(waited >= 3 && waited < 10, "waited " + waited + " s");
    repeat.waited(false);
    assertFalse(repeat.waitsNow(), "the first fruitless wait counted");
  }

  private static TrialRunner runner(DisturbedRepeat repeat) {
    return new TrialRunner(
        SharedPostgres.cluster(),
        new TproccWorkload(TproccTestDatabase.SETTINGS.withTimes(1, WINDOW_SECONDS)),
        TproccTestDatabase.SETTINGS.database(),
        "pgknob tprocc", // the workload's own clients; every other database's are other load
        Long.MAX_VALUE,
        0,
        TRIAL_TIMEOUT,
        repeat);
  }

  private static TrialRequest request() {
    return new TrialRequest(
        5, Phase.BAYES, Track.RELOAD, "bayes reload 1/1", Map.of(), Map.of(), null, null);
  }

  /** Starts the busy query as the first window opens, and hears the trial's repeat lines. */
  private final class Heard implements TrialListener {
    private final int busySeconds;
    final List<String> lines = new CopyOnWriteArrayList<>();
    volatile int windows;

    Heard(int busySeconds) {
      this.busySeconds = busySeconds;
    }

    @Override
    public void step(String name) {
      if (name.equals("window") && windows++ == 0) {
        try {
          busy = BusyQuery.forSeconds(busySeconds);
        } catch (java.sql.SQLException e) {
          throw new IllegalStateException(e);
        }
      }
    }

    @Override
    public void repeating(String what) {
      lines.add(what);
    }
  }
}
