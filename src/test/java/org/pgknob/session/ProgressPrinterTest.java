package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;

class ProgressPrinterTest {
  private final StringWriter text = new StringWriter();

  private void runTwoTrials(ProgressPrinter p) {
    p.phase(Phase.SWEEP, "4 trials over 2 knobs");
    p.trialStarted(4, 24, 24, "sweep shared_buffers=1024MB", Map.of("shared_buffers", "1024MB"));
    for (int s = 1; s <= 20; s++) {
      p.liveTps(s, 20, 2000 + s);
    }
    p.trialFinished(
        Trials.ok(
            4,
            "sweep",
            "restart",
            "sweep shared_buffers=1024MB",
            Map.of(),
            Map.of(),
            2010.44,
            3.9));
    p.trialStarted(5, 24, 24, "sweep shared_buffers=8192MB", Map.of("shared_buffers", "8192MB"));
    p.trialFinished(Trials.failed(5, "sweep", "sweep shared_buffers=8192MB", Status.MEMORY_GUARD));
  }

  @Test
  void plainOutputPrintsLinesEveryTenSeconds() {
    runTwoTrials(new ProgressPrinter(new PrintWriter(text), false));
    assertEquals(
        """
        == sweep: 4 trials over 2 knobs
        [4/24] sweep shared_buffers=1024MB
          changes: shared_buffers=1024MB
          10/20 s: 2010 TPS
          20/20 s: 2020 TPS
          -> 2010.4 TPS, 54282 NOPM, 3.90 ms avg, 7.80 ms p95
          best window so far: restart 2010.4 TPS (trial 4)
        [5/24] sweep shared_buffers=8192MB
          changes: shared_buffers=8192MB
          -> memory guard: would not start
          best window so far: restart 2010.4 TPS (trial 4)
        """,
        text.toString());
  }

  @Test
  void terminalOutputRewritesTheLiveLineInPlace() {
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(text), true);
    p.trialStarted(1, 10, 10, "baseline 1/3", Map.of());
    p.liveTps(9, 10, 1999.6);
    p.liveTps(10, 10, 21);
    p.note("restoring the original settings");
    assertEquals(
        "[1/10] baseline 1/3\n  changes: none (defaults)\n\r  9/10 s: 2000 TPS\r  10/10 s: 21 TPS"
            + " \nrestoring the original settings\n",
        text.toString());
  }

  @Test
  void warnsWhenOtherProcessesTookCpuDuringTheWindow() {
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(text), false);
    p.trialFinished(
        Trials.withForeignCpu(
            Trials.ok(7, "bayes", "reload", "bayes 3", Map.of(), Map.of(), 1500, 5), 1.3, 2));
    p.trialFinished(
        Trials.withForeignCpu(
            Trials.ok(8, "bayes", "reload", "bayes 4", Map.of(), Map.of(), 1400, 5), 0.25, 2));
    assertEquals(
        """
          -> 1500.0 TPS, 40500 NOPM, 5.00 ms avg, 10.00 ms p95
          ! trial 7: other processes used 1.3 of 2 cores during the window; its numbers may be low
          best window so far: reload 1500.0 TPS (trial 7)
          -> 1400.0 TPS, 37800 NOPM, 5.00 ms avg, 10.00 ms p95
          best window so far: reload 1500.0 TPS (trial 7)
        """,
        text.toString());
  }

  @Test
  void aResumedSessionsBestSoFarCountsTheTrialsLoggedBefore() {
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(text), false);
    p.alreadyLogged(
        java.util.List.of(Track.RELOAD, Track.RESTART),
        Goal.TPS,
        java.util.List.of(
            Trials.ok(1, "baseline", "reload", "baseline 1/3", Map.of(), Map.of(), 3100, 1.3)));
    p.trialFinished(Trials.ok(4, "bayes", "restart", "bayes 1", Map.of(), Map.of(), 2700, 1.5));
    assertEquals(
        """
          -> 2700.0 TPS, 72900 NOPM, 1.50 ms avg, 3.00 ms p95
          best window so far: reload 3100.0 TPS (trial 1), restart 2700.0 TPS (trial 4)
        """,
        text.toString());
  }

  /**
   * A session tuning average latency prints the lowest latency so far, the figure it searches for
   * (it printed the best TPS); a trial without latency (a command that reports TPS alone) is none.
   */
  @Test
  void aLatencySessionPrintsTheLowestLatencySoFar() {
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(text), false);
    p.alreadyLogged(java.util.List.of(Track.RELOAD), Goal.LATENCY, java.util.List.of());
    p.trialFinished(
        Trials.ok(1, "baseline", "reload", "baseline 1/3", Map.of(), Map.of(), 3100, 1.3));
    p.trialFinished(Trials.ok(2, "bayes", "reload", "bayes 1", Map.of(), Map.of(), 3200, 1.5));
    p.trialFinished(Trials.ok(3, "bayes", "reload", "bayes 2", Map.of(), Map.of(), 3000, 1.25));
    p.trialFinished(Trials.ok(4, "bayes", "reload", "bayes 3", Map.of(), Map.of(), 3000, 0));
    assertEquals(
        """
          -> 3100.0 TPS, 83700 NOPM, 1.30 ms avg, 2.60 ms p95
          best window so far: reload 1.30 ms avg (trial 1)
          -> 3200.0 TPS, 86400 NOPM, 1.50 ms avg, 3.00 ms p95
          best window so far: reload 1.30 ms avg (trial 1)
          -> 3000.0 TPS, 81000 NOPM, 1.25 ms avg, 2.50 ms p95
          best window so far: reload 1.25 ms avg (trial 3)
          -> 3000.0 TPS, 81000 NOPM
          best window so far: reload 1.25 ms avg (trial 3)
        """,
        text.toString());
  }

  /**
   * The baseline's runs are logged as the reload track's: a session that tunes the restart track
   * alone printed "best window so far: reload ...", a track it never searched.
   */
  @Test
  void aRestartOnlySessionCountsTheBaselineInTheRestartTrack() {
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(text), false);
    p.alreadyLogged(java.util.List.of(Track.RESTART), Goal.TPS, java.util.List.of());
    p.trialFinished(
        Trials.ok(1, "baseline", "reload", "baseline 1/3", Map.of(), Map.of(), 3100, 1.3));
    p.trialFinished(Trials.ok(4, "bayes", "restart", "bayes 1", Map.of(), Map.of(), 3200, 1.5));
    assertEquals(
        """
          -> 3100.0 TPS, 83700 NOPM, 1.30 ms avg, 2.60 ms p95
          best window so far: restart 3100.0 TPS (trial 1)
          -> 3200.0 TPS, 86400 NOPM, 1.50 ms avg, 3.00 ms p95
          best window so far: restart 3200.0 TPS (trial 4)
        """,
        text.toString());
  }

  @Test
  void afterSilenceNothingMoreIsPrintedAndTheLiveLineIsEnded() {
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(text), true);
    p.trialStarted(4, 10, 10, "bayes 1", Map.of());
    p.liveTps(10, 15, 1444);
    p.silence();
    p.trialFinished(Trials.failed(4, "bayes", "bayes 1", Status.CRASHED));
    p.phase(Phase.VALIDATION, "6 trials");
    p.trialStarted(5, 10, 10, "validation round 1/3 baseline", Map.of());
    p.note("anything");
    assertEquals(
        "[4/10] bayes 1\n  changes: none (defaults)\n\r  10/15 s: 1444 TPS\n", text.toString());
  }
}
