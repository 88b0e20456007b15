package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;

class PlanSummaryTest {
  /** The console of the trial-line tests, and the clock they move. */
  private final StringWriter text = new StringWriter();

  private final ProgressPrinter p = new ProgressPrinter(new PrintWriter(text, true), false);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T09:00:00Z"));

  @Test
  void thePlanSaysPhasesTrialsAndTheEstimatedEnd() {
    SessionPlan plan =
        Budget.apportion(16, List.of(Track.RELOAD, Track.RESTART), Goal.TPS, true, 3)
            .racingPlan(List.of(), Goal.TPS, new SessionPlan.Validating(Goal.TPS, 0.03, 3, 1));
    List<String> lines = PlanSummary.lines(plan, 40, Instant.parse("2026-12-01T09:00:00Z"));
    int total = plan.totalTrials();
    Instant end = Instant.parse("2026-12-01T09:00:00Z").plusSeconds(total * 40L);
    assertEquals(
        "plan: "
            + total
            + " trials of about 40 s (about "
            + PlanSummary.duration(total * 40L)
            + "), ending about "
            + org.pgknob.report.Labels.time(end),
        lines.get(0));
    assertTrue(lines.contains("  baseline      3 trials"), lines::toString);
    assertTrue(
        lines.contains(
            "  validation   12 trials at most: up to 3 rounds of 4 runs (defaults, restart/tps,"
                + " pgtune, reload/tps) in a random order each, stopping once every tps ratio against the"
                + " defaults excludes 1 at 99.9% or is within +-3% (at least 3 rounds)"),
        lines::toString);
  }

  /** A resumed session's plan counts what is left: before, it said the whole plan's time. */
  @Test
  void aResumedSessionsPlanSaysTheTrialsDoneAndTheTimeOfTheRest() {
    SessionPlan plan =
        Budget.apportion(16, List.of(Track.RELOAD, Track.RESTART), Goal.TPS, true, 3)
            .racingPlan(List.of(), Goal.TPS, new SessionPlan.Validating(Goal.TPS, 0.03, 3, 1));
    int total = plan.totalTrials();
    Instant now = Instant.parse("2026-12-01T09:00:00Z");

    List<String> lines = PlanSummary.linesOnResume(plan, 4, 40, now);

    assertEquals(
        "plan: "
            + total
            + " trials, 4 done, the rest of about 40 s (about "
            + PlanSummary.duration((total - 4) * 40L)
            + "), ending about "
            + org.pgknob.report.Labels.time(now.plusSeconds((total - 4) * 40L)),
        lines.get(0));
    assertEquals(PlanSummary.lines(plan, 40, now), PlanSummary.linesOnResume(plan, 0, 40, now));
  }

  @Test
  void aWallTimeBudgetsPlanSaysTheTimeLeftMayHoldMoreRounds() {
    SessionPlan plan =
        Budget.apportion(16, List.of(Track.RELOAD, Track.RESTART), Goal.TPS, true, 3)
            .racingPlan(
                List.of(),
                Goal.TPS,
                new SessionPlan.Validating(
                    Goal.TPS, 0.03, 3, 1, new SessionPlan.WallTime(720, null, 3)));
    String validation =
        PlanSummary.lines(plan, 40, Instant.parse("2026-12-01T09:00:00Z")).stream()
            .filter(l -> l.startsWith("  validation"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        validation.endsWith(
            "(at least 3 rounds); more rounds if the time left holds them when validation starts"),
        validation);
  }

  @Test
  void durationsReadAsPeopleSayThem() {
    assertEquals("45 s", PlanSummary.duration(45));
    assertEquals("7 min", PlanSummary.duration(420));
    assertEquals("1 h 05 min", PlanSummary.duration(3900));
  }

  @Test
  void trialLinesShowElapsedAndRemainingTime() {
    p.clock(clock, 1, 60);
    p.trialStarted(1, 10, 10, "baseline 1/3", Map.of());
    assertTrue(
        text.toString().startsWith("[1/10] baseline 1/3  (0 s elapsed, about 10 min left)"),
        text::toString);
    clock.now = clock.now.plus(Duration.ofSeconds(240)); // 3 trials took 80 s each
    p.trialStarted(4, 10, 10, "sweep shared_buffers=1GB", Map.of());
    assertTrue(
        text.toString()
            .contains("[4/10] sweep shared_buffers=1GB  (4 min elapsed, about 9 min left)"),
        text::toString);
  }

  @Test
  void theTimeLeftCountsTheExpectedTrialsWhileTheCountShownIsThePlans() {
    p.clock(clock, 1, 30);
    clock.now = clock.now.plus(Duration.ofSeconds(20));
    p.trialStarted(2, 23, 29, "baseline 2/3", Map.of());
    assertTrue(
        text.toString().contains("[2/23] baseline 2/3  (20 s elapsed, about 9 min left)"),
        text::toString);
  }

  @Test
  void aChosenWindowKeepsTheElapsedTimeAndCountsTheTrialsLeftAtTheirNewLength() {
    // --duration auto: three baselines of 21 s, then 30-s windows, trials of about 40 s
    p.clock(clock, 1, 31);
    clock.now = clock.now.plus(Duration.ofSeconds(63));
    p.trialsFrom(4, 40);
    p.trialStarted(4, 16, 16, "bayes restart 1/1", Map.of());
    assertTrue(
        text.toString().contains("[4/16] bayes restart 1/1  (63 s elapsed, about 9 min left)"),
        text::toString);
    clock.now = clock.now.plus(Duration.ofSeconds(80)); // two trials of 40 s
    p.trialStarted(6, 16, 16, "validation round 1/3 pgtune", Map.of());
    assertTrue(
        text.toString()
            .contains("[6/16] validation round 1/3 pgtune  (2 min elapsed, about 7 min left)"),
        text::toString);
  }

  @Test
  void aWindowRunAgainAfterADisturbanceDoesNotLengthenTheTimeLeft() {
    p.clock(clock, 1, 20);
    p.trialStarted(1, 10, 10, "baseline 1/3", Map.of());
    // 20 s of trial, then 12 s waiting for quiet and 23 s to reset and run the window again
    p.trialFinished(
        Trials.withTimings(
            Trials.ok(1, "baseline", "reload", "baseline 1/3", Map.of(), Map.of(), 500, 4),
            Map.of("total", 55.0, "quietWait", 12.0, "rerunReset", 3.0, "rerun", 20.0)));
    clock.now = clock.now.plus(Duration.ofSeconds(55));
    p.trialStarted(2, 10, 10, "baseline 2/3", Map.of());
    assertTrue(
        text.toString().contains("[2/10] baseline 2/3  (55 s elapsed, about 3 min left)"),
        text::toString);
  }

  /** A clock the test moves. */
  private static final class MutableClock extends Clock {
    Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
