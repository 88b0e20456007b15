package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

/** Reference runs and races in Bayesian slots, decided from logged trials alone. */
class MeasuredSlotsTest {
  private static final SessionPlan PLAN =
      new SessionPlan(
          3,
          List.of(),
          List.of(new SessionPlan.BayesTrack(Track.RESTART, 22)),
          List.of(),
          0,
          SessionPlan.Racing.defaults(Goal.TPS));

  private final List<TrialResult> logged = new ArrayList<>();

  /** Logs the next step with the TPS its configuration gives: settings {x: value}. */
  private Step log(double tps, String configuration) {
    Step step = PLAN.next(logged).orElseThrow();
    Map<String, String> settings;
    if (step.runsDefaults()) {
      settings = Map.of();
    } else if (step.phase() == Phase.RACE) {
      settings = settingsOf(step.race().sourceTrial());
    } else if (step.phase() == Phase.REFERENCE) {
      settings = settingsOf(step.incumbentTrial());
    } else {
      settings = Map.of("x", configuration);
    }
    logged.add(Trials.of(step, settings, tps, 1000 / tps));
    return step;
  }

  private Map<String, String> settingsOf(int trial) {
    return logged.get(trial - 1).settings();
  }

  @Test
  void theTwoBestLookingFirstProposalsAreRacedAndARunnerUpThatStaysBehindLeavesTheBestIncumbent() {
    log(1000, null);
    log(1010, null);
    log(990, null);
    Step first = log(1300, "a");
    assertEquals(Phase.BAYES, first.phase());
    // the track's first three proposals run before any race (its anchors)
    assertEquals(Phase.BAYES, log(1000, "p").phase());
    assertEquals(Phase.BAYES, log(1010, "q").phase());
    Step inc1 = log(1300, null);
    assertEquals(Phase.RACE, inc1.phase());
    assertEquals(new Step.RaceRun(false, 4, 1), inc1.race(), "the best-looking holds the place");
    assertTrue(!inc1.runsDefaults(), "not a race against the defaults");
    assertEquals("race in bayes restart 4/22: incumbent #4 pair 1", inc1.label());
    Step ch1 = log(1000, null);
    assertEquals(new Step.RaceRun(true, 6, 1), ch1.race(), "the runner-up of the three");
    log(1310, null);
    log(1010, null);
    // two pairs, the runner-up 23% behind in both: the race is over, the best-looking is the
    // track's incumbent
    assertEquals(Optional.of(4), new MeasuredSlots(PLAN).incumbent(Track.RESTART, logged));
  }

  @Test
  void anUndecidedRaceOfTheFirstProposalsGoesToTheOneItsPairsFavourNotToTheLuckyWindow() {
    SessionPlan shortPlan = nineRestartSlots();
    List<TrialResult> trials = new ArrayList<>();
    // the defaults, then "a" in a lucky window (+30%), "b" +15%, "c" as the defaults
    double[] values = {1000, 1010, 990, 1300, 1150, 1000};
    String[] configs = {null, null, null, "a", "b", "c"};
    for (int i = 0; i < values.length; i++) {
      Step s = shortPlan.next(trials).orElseThrow();
      trials.add(
          Trials.of(s, configs[i] == null ? Map.of() : Map.of("x", configs[i]), values[i], 1));
    }
    // in adjacent pairs "b" is 1% ahead of "a" twice: within the noise, so the race of at most
    // 2 pairs (6 slots left) ends undecided, and "b" has the better paired evidence
    double[] pairs = {1140, 1150, 1160, 1172};
    for (double v : pairs) {
      Step s = shortPlan.next(trials).orElseThrow();
      assertEquals(Phase.RACE, s.phase(), s.label());
      String config = s.race().challenger() ? "b" : "a";
      trials.add(Trials.of(s, Map.of("x", config), v, 1));
    }
    assertEquals(Optional.of(5), new MeasuredSlots(shortPlan).incumbent(Track.RESTART, trials));
  }

  @Test
  void afterTheFirstProposalsRaceFailsALaterChallengerRacesTheDefaultsAndAnEqualOneLoses() {
    log(1000, null);
    log(1040, null);
    log(980, null);
    log(1100, "b"); // looks 10% better in one window
    log(1000, "p");
    log(990, "q");
    Step failedRun = PLAN.next(logged).orElseThrow();
    assertEquals(new Step.RaceRun(false, 4, 1), failedRun.race());
    logged.add(Trials.failed(failedRun.trial(), "race", failedRun.label(), Status.CRASHED));
    assertEquals(Phase.BAYES, log(1100, "r").phase(), "a failed run ends the race");
    Step inc1 = log(1000, null);
    assertEquals(new Step.RaceRun(false, 0, 1), inc1.race(), "the first proposals had their race");
    assertTrue(inc1.runsDefaults());
    assertEquals(new Step.RaceRun(true, 8, 1), log(990, null).race());
    log(1030, null);
    log(1000, null);
    assertEquals(Phase.BAYES, PLAN.next(logged).orElseThrow().phase());
    assertEquals(Optional.empty(), new MeasuredSlots(PLAN).incumbent(Track.RESTART, logged));
  }

  @Test
  void theFirstProposalsRaceStopsAtTwoPairsAndLeavesTheRestToProposals() {
    SessionPlan shortPlan = nineRestartSlots();
    List<TrialResult> trials = new ArrayList<>();
    double[] values = {1000, 1010, 990, 1100, 1000, 1000};
    for (double v : values) {
      Step s = shortPlan.next(trials).orElseThrow();
      trials.add(Trials.of(s, s.runsDefaults() ? Map.of() : Map.of("x", "v" + s.trial()), v, 1));
    }
    // 6 slots left after the third proposal: a race of at most 2 pairs (4 slots), then proposals,
    // although the plan allows races of 4 pairs; the pairs here stay undecided (+3% in noise)
    List<Phase> phases = new ArrayList<>();
    double[] pairs = {1000, 1030, 1010, 1040};
    for (double v : pairs) {
      Step s = shortPlan.next(trials).orElseThrow();
      phases.add(s.phase());
      trials.add(Trials.of(s, s.runsDefaults() ? Map.of() : Map.of("x", "v4"), v, 1));
    }
    assertEquals(List.of(Phase.RACE, Phase.RACE, Phase.RACE, Phase.RACE), phases);
    // then no more race runs: proposals, or a reference run now due
    assertTrue(shortPlan.next(trials).orElseThrow().phase() != Phase.RACE);
  }

  @Test
  void aTrialWithinTheNoiseStartsNoRaceAndReferencesComeAtTheLongestIntervalWithoutDrift() {
    log(1000, null);
    log(1040, null);
    log(980, null);
    List<Phase> phases = new ArrayList<>();
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < 22; i++) {
      // the first three proposals below the defaults (no race of the first proposals), then 1%
      // above them and below in turn
      Step s = log(i < 3 || i % 2 == 1 ? 990 : 1010, "c" + i);
      steps.add(s);
      assertNull(s.race());
    }
    // the defaults last ran in trial 3; with no drift seen, a reference after 10 trials: 14, then
    // 25. The first repeats the incumbent, the best-looking proposal (1% above the defaults: within
    // the noise for a race, enough to be worth measuring again), the second the defaults.
    Step first = steps.get(14 - 4);
    assertEquals(Phase.REFERENCE, first.phase(), first.label());
    assertEquals(8, first.incumbentTrial(), first.label());
    assertEquals("reference in bayes restart 11/22: incumbent #8", first.label());
    assertTrue(!first.runsDefaults());
    Step second = steps.get(25 - 4);
    assertEquals(Phase.REFERENCE, second.phase(), second.label());
    assertTrue(second.runsDefaults(), second.label());
    assertEquals(
        2, steps.stream().filter(p -> p.phase() == Phase.REFERENCE).count(), steps.toString());
  }

  @Test
  void theFirstProposalsRaceOnceTheBestIsAboveTheDefaultsEvenWithinTheNoise() {
    log(1000, null);
    log(1040, null);
    log(980, null);
    // the best of the first three is 0.3% above the defaults' level, far within the noise (2%):
    // which anchor is the question, and validation measures the pick against the defaults
    log(1010, "a");
    log(990, "b");
    log(1000, "c");
    Step next = PLAN.next(logged).orElseThrow();
    assertEquals(Phase.RACE, next.phase(), next.label());
    assertEquals(4, next.race().sourceTrial(), next.label());
  }

  @Test
  void theFirstProposalsBelowTheDefaultsStartNoRace() {
    log(1000, null);
    log(1040, null);
    log(980, null);
    log(1000, "a");
    log(990, "b");
    log(995, "c");
    Step next = PLAN.next(logged).orElseThrow();
    assertNull(next.race(), next.label());
  }

  @Test
  void driftBeyondTheNoiseBringsReferencesSooner() {
    log(1000, null);
    log(1010, null);
    log(990, null);
    double level = 1000;
    List<Integer> references = new ArrayList<>();
    for (int i = 0; i < 22; i++) {
      // the machine gets 4% slower every trial, and every proposal is 2% below the defaults: none
      // looks better than them, so no race takes the slots and only the schedule brings
      // reference runs
      level *= 0.96;
      Step s = PLAN.next(logged).orElseThrow();
      assertNull(s.race(), s.label());
      if (s.phase() == Phase.REFERENCE) {
        references.add(s.trial());
      }
      log(s.runsDefaults() ? level : level * 0.98, "d" + i);
    }
    // the first at the longest interval (nothing seen moves before it: trial 14, as without
    // drift), the next one sooner than the 11 trials without drift, once the first saw the level
    // fall by a third
    assertEquals(14, references.get(0), references.toString());
    assertTrue(references.size() >= 2, references.toString());
    assertTrue(references.get(1) - references.get(0) < 10, references.toString());
  }

  @Test
  void plansWithoutRacingFillEverySlotWithAProposal() {
    SessionPlan old =
        new SessionPlan(
            3, List.of(), List.of(new SessionPlan.BayesTrack(Track.RESTART, 4)), List.of(), 0);
    List<TrialResult> trials = new ArrayList<>();
    for (Step s : old.steps()) {
      assertEquals(s, old.next(trials).orElseThrow());
      trials.add(Trials.of(s, s.phase() == Phase.BAYES ? 2000 : 1000, 1));
    }
  }

  @Test
  void theFirstProposalsRaceTakesItsTwoPairsWheneverFourSlotsAreLeft() {
    // 7 restart slots: 4 left after the three first proposals, under the two-thirds cap of a race
    // against the incumbent (one pair), enough for the first race's two pairs
    SessionPlan plan = restartSlots(7);
    // 17% below the runner-up: within what two windows' noise and a true difference give, and no
    // slot to spare for a second run anyway
    List<TrialResult> trials = baselinesThenFirstProposals(plan, 1300, 1200, 1000);
    List<Phase> phases = new ArrayList<>();
    for (double v : new double[] {1300, 1200, 1310, 1210}) {
      phases.add(logNext(plan, trials, v, null).phase());
    }
    assertEquals(List.of(Phase.RACE, Phase.RACE, Phase.RACE, Phase.RACE), phases);
    assertEquals(Optional.of(4), new MeasuredSlots(plan).incumbent(Track.RESTART, trials));
  }

  @Test
  void withThreeSlotsLeftTheFirstProposalsAreNotRaced() {
    SessionPlan plan = restartSlots(6);
    List<TrialResult> trials = baselinesThenFirstProposals(plan, 1300, 1200, 1000);
    // a pair needs two slots and the race two pairs: three slots hold none of it
    assertEquals(Phase.BAYES, plan.next(trials).orElseThrow().phase());
  }

  @Test
  void aFirstProposalFarBelowTheRunnerUpRunsAgainAndARecoveredOneEntersTheRace() {
    SessionPlan plan = nineRestartSlots();
    // 1250 / 900: 33% (0.33 in log) below the runner-up, beyond the 0.2 two equal windows reach
    // in about 2.5% of cases under a 7% noise; a 30% drop lands there
    List<TrialResult> trials = baselinesThenFirstProposals(plan, 1300, 1250, 900);
    Step again = logNext(plan, trials, 1400, null);
    assertEquals(Phase.REFERENCE, again.phase(), again.label());
    assertEquals(6, again.incumbentTrial(), again.label());
    assertEquals(
        "reference in bayes restart 4/9: #6 again, far below the first proposals", again.label());
    // its second window is 1400: the first was a drop (left out of the ranking), so "c" is the
    // best-looking and races "a", the runner-up now, in the 4 slots left after the recheck
    assertEquals(new Step.RaceRun(false, 6, 1), logNext(plan, trials, 1390, null).race());
    assertEquals(new Step.RaceRun(true, 4, 1), logNext(plan, trials, 1300, null).race());
    logNext(plan, trials, 1400, null);
    logNext(plan, trials, 1310, null);
    assertEquals(Optional.of(6), new MeasuredSlots(plan).incumbent(Track.RESTART, trials));
  }

  @Test
  void aFirstProposalBelowTheRunnerUpByWhatTheNoiseExplainsRunsAgainAsADroppedOneDoes() {
    // a noise-bench session: PGTune-style with the sweep's shared_buffers (the optimum) ran 16%
    // below a design point in its one window (0.17 in log), inside the 18% of a drop and within
    // two standard deviations of two windows' difference under its noise (10% here); left out,
    // the pick was PGTune-style's 70% of the gain
    SessionPlan plan = nineRestartSlots();
    List<TrialResult> trials = baselinesThenFirstProposals(plan, 1300, 1250, 1055, 1000, 1100, 900);
    Step again = logNext(plan, trials, 1400, null);
    assertEquals(Phase.REFERENCE, again.phase(), again.label());
    assertEquals(6, again.incumbentTrial(), again.label());
    // 1055 and 1400 (a drop at 0.28 below, left out): "c" leads and races "a"
    assertEquals(new Step.RaceRun(false, 6, 1), logNext(plan, trials, 1390, null).race());
    // 8% below under a 1% noise: a worse configuration, not bad luck nor a drop: measured once
    SessionPlan other = nineRestartSlots();
    List<TrialResult> worse = baselinesThenFirstProposals(other, 1300, 1250, 1150, 1000, 1010, 990);
    assertEquals(Phase.RACE, logNext(other, worse, 1300, null).phase());
  }

  @Test
  void aFirstProposalThatRunsFarBelowAgainStaysOutOfTheRaceAndOnlyOneRecheckIsTaken() {
    SessionPlan plan = nineRestartSlots();
    List<TrialResult> trials = baselinesThenFirstProposals(plan, 1300, 1250, 900);
    assertEquals(Phase.REFERENCE, logNext(plan, trials, 910, null).phase());
    // twice 28% below: a worse configuration, not a drop; the race is "a" against "b"
    assertEquals(new Step.RaceRun(false, 4, 1), logNext(plan, trials, 1300, null).race());
    assertEquals(new Step.RaceRun(true, 5, 1), logNext(plan, trials, 1250, null).race());
  }

  @Test
  void anUndecidedRaceOfTheFirstProposalsLeavesOutAPairWithADrop() {
    SessionPlan plan = nineRestartSlots();
    List<TrialResult> trials = baselinesThenFirstProposals(plan, 1500, 1300, 1200);
    // "a" loses 30% in its first race run (1000 against its other runs' 1475: a drop) and leads
    // by 7% in the second pair; with both pairs "b" would be ahead on average (+26%, -7%)
    for (double v : new double[] {1000, 1300, 1450, 1350}) {
      assertEquals(Phase.RACE, logNext(plan, trials, v, null).phase());
    }
    assertEquals(Optional.of(4), new MeasuredSlots(plan).incumbent(Track.RESTART, trials));
  }

  @Test
  void theReloadTracksFirstProposalsAreNeitherMeasuredAgainNorRacedBeyondTwoThirdsOfItsSlots() {
    SessionPlan plan =
        new SessionPlan(
            3,
            List.of(),
            List.of(new SessionPlan.BayesTrack(Track.RELOAD, 8)),
            List.of(),
            0,
            SessionPlan.Racing.defaults(Goal.TPS));
    List<TrialResult> trials = baselinesThenFirstProposals(plan, 1300, 1250, 900);
    // the restart track would measure "c" again and race; with 5 slots left the reload track keeps
    // them for the model's proposals
    for (int i = 0; i < 5; i++) {
      Step s = logNext(plan, trials, 1000 + i, "d" + i);
      assertTrue(s.phase() != Phase.RACE, s.label());
      assertTrue(!s.label().contains("again"), s.label());
    }
  }

  /** 3 baseline runs, then the restart track's 9 Bayesian slots and nothing else. */
  private static SessionPlan nineRestartSlots() {
    return restartSlots(9);
  }

  /** 3 baseline runs, then the restart track's {@code slots} Bayesian slots and nothing else. */
  private static SessionPlan restartSlots(int slots) {
    return new SessionPlan(
        3,
        List.of(),
        List.of(new SessionPlan.BayesTrack(Track.RESTART, slots)),
        List.of(),
        0,
        SessionPlan.Racing.defaults(Goal.TPS));
  }

  /**
   * The defaults' three baseline runs (1000, 1010, 990), then the track's three first proposals,
   * labelled a, b and c, at these values.
   */
  private static List<TrialResult> baselinesThenFirstProposals(
      SessionPlan plan, double a, double b, double c) {
    return baselinesThenFirstProposals(plan, a, b, c, 1000, 1010, 990);
  }

  /** As above, with the defaults' three baseline runs at these values. */
  private static List<TrialResult> baselinesThenFirstProposals(
      SessionPlan plan, double a, double b, double c, double... baselines) {
    List<TrialResult> trials = new ArrayList<>();
    for (double v : baselines) {
      logNext(plan, trials, v, null);
    }
    logNext(plan, trials, a, "a");
    logNext(plan, trials, b, "b");
    logNext(plan, trials, c, "c");
    return trials;
  }

  /**
   * Logs the plan's next step after these trials with the TPS its configuration gives: a new
   * proposal gets the settings {x: configuration}, a race or reference run those of the trial it
   * repeats, a run of the defaults none.
   */
  private static Step logNext(
      SessionPlan plan, List<TrialResult> trials, double tps, String configuration) {
    Step step = plan.next(trials).orElseThrow();
    Map<String, String> settings;
    if (step.runsDefaults()) {
      settings = Map.of();
    } else if (step.phase() == Phase.RACE) {
      settings = trials.get(step.race().sourceTrial() - 1).settings();
    } else if (step.phase() == Phase.REFERENCE) {
      settings = trials.get(step.incumbentTrial() - 1).settings();
    } else {
      settings = Map.of("x", configuration);
    }
    trials.add(Trials.of(step, settings, tps, 1000 / tps));
    return step;
  }
}
