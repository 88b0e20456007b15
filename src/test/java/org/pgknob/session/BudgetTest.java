package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.testing.Records;
import org.pgknob.trial.TrialResult;

class BudgetTest {
  @Test
  void trialsCountAtTheWindowStillToRunAndOnlyThoseOfAnotherWindowChange() {
    TrialResult base =
        Trials.ok(1, "baseline", "reload", "baseline 1/3", Map.of(), Map.of(), 500, 4);
    TrialResult at15 = Trials.withTimings(window(base, 15), Map.of("total", 21.0));
    TrialResult at30 = Trials.withTimings(window(base, 30), Map.of("total", 40.0));
    // a command that times itself: a 1-s window given, answered in 0.2 s
    TrialResult quick = Trials.withTimings(window(base, 0.2), Map.of("total", 0.5));
    TrialResult failed =
        Trials.withTimings(Records.with(base, "workload", null), Map.of("total", 3.0));

    assertEquals(38.0, Budget.observedTrialSeconds(List.of(at15, at30), 30).orElseThrow(), 1e-9);
    assertEquals(40.0, Budget.observedTrialSeconds(List.of(at30), 30).orElseThrow(), 1e-9);
    assertEquals(30.5, Budget.observedTrialSeconds(List.of(at15, at30)).orElseThrow(), 1e-9);
    assertEquals(0.5, Budget.observedTrialSeconds(List.of(quick)).orElseThrow(), 1e-9);
    assertEquals(3.0, Budget.observedTrialSeconds(List.of(failed), 30).orElseThrow(), 1e-9);
  }

  private static TrialResult window(TrialResult t, double seconds) {
    return Records.with(t, "workload", Records.with(t.workload(), "windowSeconds", seconds));
  }

  @Test
  void parsesTrialsTimesAndBoth() {
    assertEquals(new Budget(40, null), Budget.parse("40"));
    assertEquals(new Budget(40, null), Budget.parse("40 trials"));
    assertEquals(new Budget(1, null), Budget.parse("1 trial"));
    assertEquals(new Budget(null, Duration.ofHours(2)), Budget.parse("2h"));
    assertEquals(new Budget(null, Duration.ofMinutes(90)), Budget.parse("90m"));
    assertEquals(new Budget(null, Duration.ofMinutes(45)), Budget.parse("45min"));
    assertEquals(new Budget(null, Duration.ofMinutes(90)), Budget.parse("1h30m"));
    assertEquals(new Budget(40, Duration.ofHours(2)), Budget.parse("40,2h"));
    assertEquals(new Budget(40, Duration.ofHours(2)), Budget.parse("2h, 40 trials"));
    assertEquals("40 trials, 1h30m", Budget.parse("40,90m").describe());
  }

  @Test
  void refusesWhatItDoesNotUnderstand() {
    for (String bad :
        List.of("", "forty", "40 turtles", "2 days", "40,50", "2h,3h", "0", "0m", "1,2,3")) {
      PgknobException e = assertThrows(PgknobException.class, () -> Budget.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("budget '" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void tooFewTrialsSayTheMinimum() {
    PgknobException e =
        assertThrows(PgknobException.class, () -> Budget.parse("8").trialsFor(30, 3));
    assertEquals(
        "budget of 8 trials is too small: a session needs at least 13 (3 baseline runs, 1 trial, 3"
            + " validation rounds of the defaults, the pick and PGTune-style: the fewest that can"
            + " decide a comparison) (give --budget 13 or more)",
        e.oneLine());
    assertThrows(PgknobException.class, () -> Budget.parse("12").trialsFor(30, 3));
    assertEquals(13, Budget.parse("13").trialsFor(30, 3));
  }

  @Test
  void tooLittleTimeSaysTheMinimumTime() {
    PgknobException e =
        assertThrows(PgknobException.class, () -> Budget.parse("4m").trialsFor(48, 3));
    assertEquals(
        "budget 4m fits about 5 trials of 48 s; a session needs at least 13 (3 baseline runs, 1"
            + " trial, 3 validation rounds of the defaults, the pick and PGTune-style: the fewest"
            + " that can decide a comparison), about 11m (give --budget 11m or more, or shorter"
            + " trials (--duration))",
        e.oneLine());
  }

  @Test
  void wallTimeBecomesTrialsAndTheTighterLimitWins() {
    assertEquals(30, Budget.parse("15m").trialsFor(30, 3));
    assertEquals(20, Budget.parse("20,15m").trialsFor(30, 3));
    assertEquals(30, Budget.parse("40,15m").trialsFor(30, 3));
  }

  @Test
  void trialEstimateAddsResetApplyRampupWindowAndCheckpoint() {
    double reload = Budget.estimateTrialSeconds(150_000_000L, 5, 20, false);
    double restart = Budget.estimateTrialSeconds(150_000_000L, 5, 20, true);
    assertEquals(2 + 1 + 1 + 5 + 20 + 2 + 0.3, reload, 1e-9);
    assertEquals(reload + 4, restart, 1e-9);
    assertTrue(Budget.observedTrialSeconds(List.of()).isEmpty());
    assertEquals(
        30.0,
        Budget.observedTrialSeconds(
                List.of(
                    Trials.ok(1, "baseline", "reload", "baseline 1/3", Map.of(), Map.of(), 1, 1)))
            .getAsDouble());
  }

  @Test
  void smallestBudgetValidatesBothPicksAndPgTuneInThreeRounds() {
    assertEquals(16, Budget.minimumTrials(3, 2));
    Budget.Shares s = Budget.apportion(16, List.of(Track.RELOAD, Track.RESTART), Goal.TPS, true, 3);
    assertEquals(3, s.baselineRuns());
    assertEquals(0, s.sweepTrials());
    assertEquals(Map.of(Track.RELOAD, 0, Track.RESTART, 1), s.bayesIterations());
    assertEquals(
        List.of(
            new SessionPlan.Validation("restart/tps", Track.RESTART),
            new SessionPlan.Validation("pgtune", Track.RESTART),
            new SessionPlan.Validation("reload/tps", Track.RELOAD)),
        s.validations());
    assertEquals(3, s.validationPairs());
    assertEquals(16, s.totalTrials());
    assertThrows(
        IllegalArgumentException.class,
        () -> Budget.apportion(15, List.of(Track.RELOAD, Track.RESTART), Goal.TPS, true, 3));
  }

  @Test
  void everyBudgetValidatesPgTuneWithEveryPickInAtLeastThreeRounds() {
    for (List<Track> tracks :
        List.of(List.of(Track.RESTART), List.of(Track.RELOAD, Track.RESTART))) {
      for (int total = Budget.minimumTrials(3, tracks.size()); total <= 200; total++) {
        Budget.Shares s = Budget.apportion(total, tracks, Goal.TPS, true, 3);
        List<String> names = s.validations().stream().map(SessionPlan.Validation::name).toList();
        List<String> always =
            tracks.size() == 1
                ? List.of("restart/tps", "pgtune")
                : List.of("restart/tps", "pgtune", "reload/tps");
        assertEquals(always, names.subList(0, always.size()), total + " trials");
        assertTrue(s.validationPairs() >= 3, total + " trials");
        assertEquals(total, s.totalTrials(), total + " trials");
        int search = s.sweepTrials() + s.bayesIterations().values().stream().mapToInt(i -> i).sum();
        assertTrue(search >= 1, total + " trials");
      }
    }
  }

  @Test
  void fortyTrialsShareByTheDocumentedRule() {
    // validation: 40% of 40 = 16 trials; 4 configurations fit 3 rounds of 5 (a fifth would need
    // 18), so 16 / 5 = 3 rounds at most, 15 trials; search 40 - 3 - 15 = 22; sweeps floor(0.3 x
    // 22) = 6; Bayes 16 = 8 + 8
    Budget.Shares s =
        Budget.apportion(40, List.of(Track.RELOAD, Track.RESTART), Goal.LATENCY, true, 3);
    assertEquals(3, s.baselineRuns());
    assertEquals(6, s.sweepTrials());
    assertEquals(Map.of(Track.RELOAD, 8, Track.RESTART, 8), s.bayesIterations());
    assertEquals(
        List.of(
            new SessionPlan.Validation("restart/latency", Track.RESTART),
            new SessionPlan.Validation("pgtune", Track.RESTART),
            new SessionPlan.Validation("reload/latency", Track.RELOAD),
            new SessionPlan.Validation("restart/tps", Track.RESTART)),
        s.validations());
    assertEquals(3, s.validationPairs());
    assertEquals(40, s.totalTrials());
  }

  @Test
  void longSessionsValidateEverythingInMoreRoundsAndRunFiveBaselines() {
    // validation: 48 trials, 5 configurations: up to 8 rounds of 6, and a spare
    Budget.Shares s =
        Budget.apportion(120, List.of(Track.RELOAD, Track.RESTART), Goal.TPS, true, 3);
    assertEquals(5, s.baselineRuns());
    assertEquals(
        List.of("restart/tps", "pgtune", "reload/tps", "restart/latency", "reload/latency"),
        s.validations().stream().map(SessionPlan.Validation::name).toList());
    assertEquals(8 + 1, s.validationPairs());
    assertEquals(120, s.totalTrials());
  }

  @Test
  void aShareOfSixRoundsOrMoreGetsASpareRoundFromTheSearchAndAFortyTrialPlanNone() {
    List<Track> tracks = List.of(Track.RELOAD, Track.RESTART);
    // 89 trials: floor(35.6) = 35 trials, 5 rounds of 6; 90: 36 trials, 6 rounds, so 7
    Budget.Shares below = Budget.apportion(89, tracks, Goal.TPS, true, 3);
    Budget.Shares from = Budget.apportion(90, tracks, Goal.TPS, true, 3);
    assertEquals(5, below.validationPairs());
    assertEquals(6 + 1, from.validationPairs());
    assertEquals(90 - 5 - 7 * 6, searchTrials(from), "the spare's 6 runs come from the search");
    assertEquals(89 - 5 - 5 * 6, searchTrials(below));
    assertEquals(3, Budget.apportion(40, tracks, Goal.TPS, true, 3).validationPairs());
  }

  private static int searchTrials(Budget.Shares s) {
    return s.sweepTrials() + s.bayesIterations().values().stream().mapToInt(i -> i).sum();
  }

  @Test
  void unusedSweepTrialsGoToTheLastTrack() {
    Budget.Shares s =
        Budget.apportion(40, List.of(Track.RELOAD, Track.RESTART), Goal.TPS, false, 3);
    SessionPlan plan =
        s.plan(
            List.of(
                new SessionPlan.SweepKnob(
                    "shared_buffers", Track.RESTART, "MB", List.of(128L, 512L, 2048L))));
    assertEquals(40, plan.totalTrials());
    assertEquals(new SessionPlan.BayesTrack(Track.RESTART, 8 + 3), plan.bayes().get(1));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            s.plan(
                List.of(
                    new SessionPlan.SweepKnob(
                        "work_mem", Track.RELOAD, "MB", List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L)))));
  }

  @Test
  void parsedTrialsOnlyBudgetHasNoWallTime() {
    assertNull(Budget.parse("12").wallTime());
  }
}
