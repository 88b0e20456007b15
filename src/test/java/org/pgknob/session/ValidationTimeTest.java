package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.ResultKey;
import org.pgknob.runs.Track;
import org.pgknob.testing.Records;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Validation's rounds re-counted from the budget's time left, on synthetic logged trials: the 60
 * minute session that planned 31 s trials whose trials took 22 s gets the rounds its time holds;
 * trials slower than planned keep the plan's rounds; a budget of trials changes nothing; a round
 * beyond the plan's starts only if it fits; and every count comes from the logged timings alone, so
 * a resume from any point proposes what the uninterrupted session ran.
 */
class ValidationTimeTest {
  /** Four candidates: a round runs 5 trials. */
  private static final List<String> PICKS =
      List.of("restart/tps", "pgtune", "reload/tps", "restart/latency");

  private static final double HOUR = 3600;

  /**
   * 3 baseline runs and 71 restart trials (74 before validation, as the 60-minute session had),
   * then up to {@code plannedRounds} rounds; {@code wallTime} null for a budget of trials only.
   */
  private static SessionPlan plan(int plannedRounds, SessionPlan.WallTime wallTime) {
    return new SessionPlan(
        3,
        List.of(),
        List.of(new SessionPlan.BayesTrack(Track.RESTART, 71)),
        PICKS.stream()
            .map(
                n ->
                    new SessionPlan.Validation(
                        n, ResultKey.of(n).map(ResultKey::track).orElse(Track.RESTART)))
            .toList(),
        plannedRounds,
        null,
        new SessionPlan.Validating(Goal.TPS, 0.03, 3, 42, wallTime));
  }

  private static SessionPlan hour(int plannedRounds) {
    return plan(plannedRounds, new SessionPlan.WallTime(HOUR, null, plannedRounds));
  }

  /**
   * A session as TuningSession runs it: at validation's start the rounds are re-counted; each trial
   * takes {@code seconds} of its step. Every run is the defaults' level with 10% noise, so no ratio
   * is decided and validation goes on as long as its rounds and time allow.
   */
  private static Run run(SessionPlan plan, ToDoubleFunction<Step> seconds) {
    List<TrialResult> logged = new ArrayList<>();
    SessionPlan current = plan;
    Optional<Step> next;
    while ((next = (current = recountAtStart(current, logged)).next(logged)).isPresent()) {
      Step s = next.get();
      logged.add(Trials.taking(logTrial(s), seconds.applyAsDouble(s)));
    }
    return new Run(current, logged);
  }

  private static SessionPlan recountAtStart(SessionPlan plan, List<TrialResult> logged) {
    if (logged.size() < plan.searchTrials()) {
      return plan;
    }
    return ValidationTime.recounted(
        plan, logged.subList(0, plan.searchTrials()), 1 + plan.validations().size());
  }

  private static TrialResult logTrial(Step s) {
    Map<String, String> settings =
        s.phase() == Phase.BAYES
            ? Map.of("shared_buffers", s.trial() + "00MB")
            : s.runsDefaults() ? Map.of() : Map.of("work_mem", s.subject());
    double tps = 1000 * Math.exp(0.10 * new Random(500L + s.trial()).nextGaussian());
    return Trials.of(s, settings, tps, 4);
  }

  private record Run(SessionPlan plan, List<TrialResult> trials) {
    List<TrialResult> validation() {
      return trials.stream().filter(t -> t.phase() == Phase.VALIDATION).toList();
    }

    double seconds() {
      return ValidationTime.usedSeconds(trials, 0);
    }
  }

  /** The 60-minute session: trials of 22 s where the plan assumed 31 s. */
  private static final Run QUICKER = run(hour(7), s -> 22);

  @Test
  void trialsQuickerThanPlannedGiveValidationTheRoundsTheTimeLeftHolds() {
    // planned: 7 rounds from 31 s trials; they take 22 s: 74 x 22 s = 27 min 8 s spent, 32 min 52
    // s left, a round of 5 runs takes 110 s: 17 rounds
    Run r = QUICKER;
    assertEquals(17, r.plan().validationPairs());
    assertEquals(17 * 5, r.validation().size(), "every round that fits ran");
    assertTrue(r.validation().get(0).label().startsWith("validation round 1/17 "));
    assertTrue(r.seconds() <= HOUR, r.seconds() + " s of a budget of " + HOUR);
    assertTrue(r.seconds() > HOUR - 5 * 22, "no round that fits was left out: " + r.seconds());
  }

  @Test
  void trialsSlowerThanPlannedKeepThePlansRoundsSoTheValidationShareStays() {
    Run r = run(hour(7), s -> 45);
    assertEquals(7, r.plan().validationPairs());
    assertEquals(7 * 5, r.validation().size());
  }

  @Test
  void aBudgetOfTrialsOnlyKeepsThePlansRoundsWhateverTheTrialsTook() {
    Run r = run(plan(7, null), s -> 5);
    assertEquals(7, r.plan().validationPairs());
    assertEquals(7 * 5, r.validation().size());
  }

  @Test
  void aBudgetWithTrialsTooNeverTakesTheSessionPastThem() {
    // 60m and 130 trials: the time holds 17 rounds, the trials (130 - 74) / 5 = 11
    SessionPlan plan = plan(7, new SessionPlan.WallTime(HOUR, 130, 7));
    Run r = run(plan, s -> 22);
    assertEquals(11, r.plan().validationPairs());
    assertTrue(r.trials().size() <= 130, r.trials().size() + " trials");
  }

  @Test
  void aStandInForAPickLeftOutLeavesTheRoundsTheBudgetsTrialsHold() {
    // reload/latency takes the runs of reload/tps, the defaults: a round still runs 5 trials, and
    // the 130 trials still hold (130 - 74) / 5 = 11 rounds
    SessionPlan plan =
        plan(7, new SessionPlan.WallTime(HOUR, 130, 7))
            .withStandIns(
                List.of(
                    new SessionPlan.Validation(
                        "reload/latency", Track.RELOAD, Map.of(), "reload/tps")));
    List<TrialResult> search = QUICKER.trials().subList(0, plan.searchTrials());
    assertEquals(11, ValidationTime.rounds(plan, search, 5));
  }

  @Test
  void aRoundBeyondThePlansStartsOnlyIfItFitsTheTimeLeft() {
    // the search's trials took 22 s, validation's take 30 s (each one a restart): the count at the
    // start (17) overestimates, and the rounds that would run past the hour are not started
    Run r = run(hour(7), s -> s.phase() == Phase.VALIDATION ? 30 : 22);
    assertEquals(17, r.plan().validationPairs());
    int rounds = r.validation().size() / 5;
    assertEquals(0, r.validation().size() % 5, "whole rounds only");
    assertTrue(rounds >= 7 && rounds < 17, rounds + " rounds");
    assertTrue(r.seconds() <= HOUR, r.seconds() + " s of a budget of " + HOUR);
    assertTrue(r.seconds() + 5 * 30 > HOUR, "the next round would not have fit: " + r.seconds());
  }

  @Test
  void aResumeFromAnyPointCountsTheSameRoundsAndProposesTheSameRun() {
    Run whole = run(hour(7), s -> s.phase() == Phase.VALIDATION ? 30 : 22);
    SessionPlan stored = whole.plan(); // what session.json holds once validation began
    int end = whole.trials().size();
    // every third point (each replay re-reads the whole log), and the last ones
    for (int k = hour(7).searchTrials(); k <= end; k += k >= end - 3 ? 1 : 3) {
      List<TrialResult> before = whole.trials().subList(0, k);
      // killed before the re-counted plan was written, or after: the same count either way
      SessionPlan fromFirst = recountAtStart(hour(7), before);
      assertEquals(stored, fromFirst, "#" + k);
      assertSame(stored, recountAtStart(stored, before), "a stored count is kept as it is");
      Optional<Step> next = fromFirst.next(before);
      if (k < end) {
        assertEquals(whole.trials().get(k).label(), next.orElseThrow().label(), "#" + k);
      } else {
        assertTrue(next.isEmpty(), "the session was done");
      }
    }
  }

  @Test
  void theTimeLeftDuringTheSearchCountsTheRoundsThatQuickerTrialsWillBuy() {
    Run r = QUICKER; // the plan's 74 + 7 x 5 trials; 74 + 17 x 5 ran
    SessionPlan planned = hour(7);
    for (int k : new int[] {1, 2, 30, planned.searchTrials() - 1}) {
      List<TrialResult> before = r.trials().subList(0, k);
      assertEquals(
          r.trials().size(),
          ValidationTime.expectedTrials(planned, before, planned.totalTrials()),
          "after " + k + " trials");
    }
    // from validation's start the re-counted plan's count stands as it is
    List<TrialResult> search = r.trials().subList(0, planned.searchTrials());
    assertEquals(159, ValidationTime.expectedTrials(r.plan(), search, 159));
    assertEquals(144, ValidationTime.expectedTrials(r.plan(), search, 144), "a pick left out");
  }

  @Test
  void theTimeLeftKeepsThePlansCountWhenTheTrialsAreSlowOrTheBudgetCountsTrials() {
    Run slower = run(hour(7), s -> 45);
    Run trialsOnly = run(plan(7, null), s -> 5);
    Run capped = run(plan(7, new SessionPlan.WallTime(HOUR, 130, 7)), s -> 22);
    assertEquals(109, ValidationTime.expectedTrials(hour(7), slower.trials().subList(0, 2), 109));
    assertEquals(
        109, ValidationTime.expectedTrials(plan(7, null), trialsOnly.trials().subList(0, 2), 109));
    assertEquals(
        capped.trials().size(),
        ValidationTime.expectedTrials(
            plan(7, new SessionPlan.WallTime(HOUR, 130, 7)), capped.trials().subList(0, 2), 109));
    assertEquals(
        109, ValidationTime.expectedTrials(hour(7), List.of(), 109), "no trial measured yet");
  }

  /**
   * A 12-minute --duration auto session as it ran on PostgreSQL 15: three baselines of 15-s windows
   * (21 s each), one restart trial of a 30-s window (40 s), then rounds of the defaults and
   * PGTune-style, each run 40 s.
   */
  private static List<TrialResult> autoWindowSearch(SessionPlan plan) {
    List<TrialResult> logged = new ArrayList<>();
    for (int i = 0; i < plan.searchTrials(); i++) {
      Step s = plan.next(logged).orElseThrow();
      TrialResult t =
          s.phase() == Phase.BASELINE ? window(logTrial(s), 15) : window(logTrial(s), 30);
      logged.add(Trials.taking(t, s.phase() == Phase.BASELINE ? 21 : 40));
    }
    return logged;
  }

  private static TrialResult window(TrialResult t, double seconds) {
    return Records.with(t, "workload", Records.with(t.workload(), "windowSeconds", seconds));
  }

  private static SessionPlan autoWindowPlan(Double windowSeconds) {
    return new SessionPlan(
        3,
        List.of(),
        List.of(new SessionPlan.BayesTrack(Track.RESTART, 1)),
        List.of(new SessionPlan.Validation("pgtune", Track.RESTART)),
        3,
        null,
        new SessionPlan.Validating(
            Goal.TPS, 0.03, 3, 42, new SessionPlan.WallTime(720, null, 3, windowSeconds)));
  }

  @Test
  void trialsOfTheBaselinesShorterWindowCountAtTheWindowTheRestRuns() {
    // 103 s spent, 617 s left; counted as they ran, trials took 26 s and 11 rounds of 2 runs
    // seemed to fit (the session announced them, and 22 min left); at the 30-s window the
    // baselines are 36-s trials, the mean 37 s: 8 rounds
    SessionPlan plan = autoWindowPlan(30.0);
    List<TrialResult> search = autoWindowSearch(plan);
    assertEquals(37, Budget.observedTrialSeconds(search, 30).orElseThrow(), 1e-9);
    assertEquals(8, ValidationTime.rounds(plan, search, 2));
    assertEquals(
        Optional.of(
            "validation: up to 8 rounds (the plan had 3): they fit the 10 min left; trials took"
                + " 37 s, the plan assumed 46 s"),
        ValidationTime.line(plan, ValidationTime.recounted(plan, search, 2), search, 46));
    // a plan from before the window was kept counts the trials as they ran
    assertEquals(11, ValidationTime.rounds(autoWindowPlan(null), search, 2));
  }

  @Test
  void everyRoundOfAnAutoWindowSessionFitsItsBudget() {
    SessionPlan plan = autoWindowPlan(30.0);
    List<TrialResult> logged = autoWindowSearch(plan);
    SessionPlan current = ValidationTime.recounted(plan, logged, 2);
    Optional<Step> next;
    while ((next = current.next(logged)).isPresent()) {
      logged.add(Trials.taking(window(logTrial(next.get()), 30), 40));
    }
    double used = ValidationTime.usedSeconds(logged, 0);
    assertTrue(used <= 720, used + " s of a budget of 720");
    assertTrue(used + 2 * 40 > 720, "no round that fits was left out: " + used);
  }

  @Test
  void theConsoleSaysTheNewCountOnlyWhenItChanged() {
    SessionPlan planned = hour(7);
    Run r = QUICKER;
    List<TrialResult> search = r.trials().subList(0, planned.searchTrials());
    assertEquals(
        Optional.of(
            "validation: up to 17 rounds (the plan had 7): they fit the 33 min left; trials took"
                + " 22 s, the plan assumed 31 s"),
        ValidationTime.line(planned, r.plan(), search, 31));
    assertEquals(Optional.empty(), ValidationTime.line(r.plan(), r.plan(), search, 31));
  }
}
