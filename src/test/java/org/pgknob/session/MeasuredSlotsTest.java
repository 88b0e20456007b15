package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/** Reference runs and races in Bayesian slots, decided from logged trials alone. */
class MeasuredSlotsTest {
  private static final SessionPlan PLAN =
      new SessionPlan(
          3,
          List.of(),
          List.of(new SessionPlan.BayesTrack("restart", 22)),
          List.of(),
          0,
          SessionPlan.Racing.defaults("tps"));

  private final List<TrialResult> logged = new ArrayList<>();

  /** Logs the next step with the TPS its configuration gives: settings {x: value}. */
  private Step log(double tps, String configuration) {
    Step step = PLAN.next(logged).orElseThrow();
    Map<String, String> settings;
    if (step.runsDefaults()) {
      settings = Map.of();
    } else if (step.phase() == Phase.RACE) {
      settings = settingsOf(step.race().sourceTrial());
    } else {
      settings = Map.of("x", configuration);
    }
    logged.add(
        Trials.ok(
            step.trial(),
            step.phase().label(),
            step.track(),
            step.label(),
            Map.of(),
            settings,
            tps,
            1000 / tps));
    return step;
  }

  private Map<String, String> settingsOf(int trial) {
    return logged.get(trial - 1).settings();
  }

  @Test
  void aChallengerThatLooksBetterIsRacedInPairsUntilItWins() {
    log(1000, null);
    log(1010, null);
    log(990, null);
    Step first = log(1300, "a");
    assertEquals(Phase.BAYES, first.phase());
    Step inc1 = log(1000, null);
    assertEquals(Phase.RACE, inc1.phase());
    assertEquals(new Step.RaceRun(false, 0, 1), inc1.race());
    assertTrue(inc1.runsDefaults(), "the first incumbent is the defaults");
    Step ch1 = log(1290, "a");
    assertEquals(new Step.RaceRun(true, 4, 1), ch1.race());
    assertEquals("race in bayes restart 3/22: challenger #4 pair 1", ch1.label());
    log(1005, null);
    log(1310, "a");
    // two pairs, 29% ahead in both under 1% noise: decided
    Step after = PLAN.next(logged).orElseThrow();
    assertEquals(Phase.BAYES, after.phase(), after.label());
    assertEquals(
        Optional.of(4), new MeasuredSlots(PLAN).incumbent("restart", logged), "the winner");
  }

  @Test
  void anEqualChallengerLosesItsRaceAndTheDefaultsStay() {
    log(1000, null);
    log(1040, null);
    log(980, null);
    log(1100, "b"); // looks 10% better in one window
    log(1000, null);
    log(990, "b");
    log(1030, null);
    log(1000, "b");
    assertEquals(Phase.BAYES, PLAN.next(logged).orElseThrow().phase());
    assertEquals(Optional.empty(), new MeasuredSlots(PLAN).incumbent("restart", logged));
  }

  @Test
  void aTrialWithinTheNoiseStartsNoRaceAndReferencesComeAtTheLongestIntervalWithoutDrift() {
    log(1000, null);
    log(1040, null);
    log(980, null);
    List<Phase> phases = new ArrayList<>();
    for (int i = 0; i < 22; i++) {
      Step s = log(i % 2 == 0 ? 1010 : 990, "c" + i);
      phases.add(s.phase());
      assertNull(s.race());
    }
    // the defaults last ran in trial 3; with no drift seen, again after 10 trials: 14, then 25
    assertEquals(Phase.REFERENCE, phases.get(14 - 4), phases.toString());
    assertEquals(Phase.REFERENCE, phases.get(25 - 4), phases.toString());
    assertEquals(2, phases.stream().filter(p -> p == Phase.REFERENCE).count(), phases.toString());
  }

  @Test
  void driftBeyondTheNoiseBringsReferencesSooner() {
    log(1000, null);
    log(1010, null);
    log(990, null);
    double level = 1000;
    int references = 0;
    for (int i = 0; i < 22; i++) {
      level *= 1.04; // the machine gets 4% faster every trial
      Step s = PLAN.next(logged).orElseThrow();
      // races against the defaults run them too: every run of the defaults is a reference
      references += s.runsDefaults() ? 1 : 0;
      log(s.runsDefaults() ? level : level * 0.98, "d" + i);
    }
    // at the longest interval there would be 2 (trials 14 and 25)
    assertTrue(references >= 4, references + " runs of the defaults");
  }

  @Test
  void plansWithoutRacingFillEverySlotWithAProposal() {
    SessionPlan old =
        new SessionPlan(
            3, List.of(), List.of(new SessionPlan.BayesTrack("restart", 4)), List.of(), 0);
    List<TrialResult> trials = new ArrayList<>();
    for (Step s : old.steps()) {
      assertEquals(s, old.next(trials).orElseThrow());
      trials.add(Trials.of(s, s.phase() == Phase.BAYES ? 2000 : 1000, 1));
    }
  }
}
