package org.pgknob.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.pgknob.runs.Track;
import org.pgknob.server.PrimaryHazardException;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.tprocc.TproccTestDatabase;
import org.pgknob.workload.tprocc.TproccWorkload;

/**
 * Real TPROC-C trials on the shared cluster whose synchronous standby goes away: commits then wait
 * for good while the server answers. Before, a trial whose standby left during its run waited the
 * driver's socket timeout (120 s), was logged as the configuration's crash ("the server stopped
 * answering"), and the next trial's reset (DROP DATABASE) waited for good.
 */
class TrialRunnerHazardTest {
  private static final Duration TRIAL_TIMEOUT = Duration.ofMinutes(5);

  @AfterEach
  void bringTheStandbyBack() throws Exception {
    sql("ALTER SYSTEM RESET synchronous_standby_names");
    sql("SELECT pg_reload_conf()");
  }

  @Test
  // Without the watch's hazard check the run waits 120 s for its sockets; the test's own thread
  // fails it sooner than the suite would notice.
  @Timeout(value = 100, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aStandbyThatLeavesDuringTheRunEndsTheTrialInSecondsAndNamesTheStandby() throws Exception {
    TproccTestDatabase.built();
    AtomicBoolean left = new AtomicBoolean();
    TrialListener leaveAtTheWindow =
        new TrialListener() {
          @Override
          public void step(String name) {
            if (name.equals("window") && left.compareAndSet(false, true)) {
              try {
                sql("ALTER SYSTEM SET synchronous_standby_names = 'gone_standby'");
                sql("SELECT pg_reload_conf()");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            }
          }
        };
    long start = System.nanoTime();
    PrimaryHazardException stop =
        assertThrows(
            PrimaryHazardException.class, () -> runner(60).run(request(7), leaveAtTheWindow));
    long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

    assertTrue(left.get(), "the window started");
    assertTrue(
        stop.getMessage()
            .startsWith(
                "during trial 7, the server's commits wait for a synchronous standby"
                    + " (synchronous_standby_names = 'gone_standby'), and no standby is connected"),
        stop::oneLine);
    assertTrue(
        stop.fix().startsWith("bring the standby back, or clear synchronous_standby_names")
            && stop.fix().endsWith("then resume the session, which runs trial 7 again"),
        stop::fix);
    // a 60-s window stopped by the stall's probe, a few seconds after the standby left
    assertTrue(seconds < 45, "the trial took " + seconds + " s");
    assertEquals(0, waitingForTheStandby(), "the workload's backends were ended");
  }

  @Test
  @Timeout(value = 100, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aStandbyGoneBeforeTheTrialStopsItBeforeItsResetWrites() throws Exception {
    TproccTestDatabase.built();
    sql("ALTER SYSTEM SET synchronous_standby_names = 'gone_standby'");
    sql("SELECT pg_reload_conf()");
    AtomicBoolean reset = new AtomicBoolean();
    TrialListener steps =
        new TrialListener() {
          @Override
          public void step(String name) {
            reset.compareAndSet(false, name.equals("reset"));
          }
        };
    PrimaryHazardException stop =
        assertThrows(PrimaryHazardException.class, () -> runner(2).run(request(3), steps));

    assertTrue(
        stop.getMessage().startsWith("before trial 3, the server's commits wait for a synchronous"),
        stop::oneLine);
    assertTrue(!reset.get(), "the trial never reached its reset");
    assertEquals(0, waitingForTheStandby());
  }

  @Test
  // Without local commits the reset's DROP DATABASE waits for the standby for good.
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aResetDoesNotWaitForAStandbyThatWentAwayMeanwhile() throws Exception {
    TproccTestDatabase.built();
    // After the trial's own check: the standby leaves between that check and the reset.
    sql("ALTER SYSTEM SET synchronous_standby_names = 'gone_standby'");
    sql("SELECT pg_reload_conf()");
    new TproccWorkload(TproccTestDatabase.SETTINGS).reset(SharedPostgres.cluster());

    assertEquals(0, waitingForTheStandby());
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM pg_database WHERE datname = '"
                    + TproccTestDatabase.SETTINGS.database()
                    + "'")) {
      rs.next();
      assertEquals(1, rs.getLong(1), "the database was copied again");
    }
  }

  private static TrialRunner runner(int windowSeconds) {
    return new TrialRunner(
        SharedPostgres.cluster(),
        new TproccWorkload(TproccTestDatabase.SETTINGS.withTimes(1, windowSeconds)),
        TproccTestDatabase.SETTINGS.database(),
        null,
        Long.MAX_VALUE,
        0,
        TRIAL_TIMEOUT,
        DisturbedRepeat.never());
  }

  private static TrialRequest request(int trial) {
    return new TrialRequest(
        trial, Phase.BAYES, Track.RELOAD, "bayes reload 1/1", Map.of(), Map.of(), null, null);
  }

  /**
   * Backends of any database whose commit waits for a synchronous standby, once those ended are
   * gone (a terminated backend leaves pg_stat_activity when it has exited: up to 10 s).
   */
  private static long waitingForTheStandby() throws Exception {
    long waiting = 0;
    for (int i = 0; i < 100; i++) {
      try (Connection conn = SharedPostgres.connect();
          Statement st = conn.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")) {
        rs.next();
        waiting = rs.getLong(1);
      }
      if (waiting == 0) {
        return 0;
      }
      Thread.sleep(100);
    }
    return waiting;
  }

  private static void sql(String statement) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute(statement);
    }
  }
}
