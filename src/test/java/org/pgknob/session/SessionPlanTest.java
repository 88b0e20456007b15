package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

class SessionPlanTest {
  private static final SessionPlan PLAN =
      new SessionPlan(
          3,
          List.of(
              new SessionPlan.SweepKnob(
                  "shared_buffers", Track.RESTART, "MB", List.of(128L, 1024L)),
              new SessionPlan.SweepKnob("random_page_cost", Track.RELOAD, "", List.of(1.1, 4.0))),
          List.of(
              new SessionPlan.BayesTrack(Track.RELOAD, 2),
              new SessionPlan.BayesTrack(Track.RESTART, 3)),
          List.of(
              new SessionPlan.Validation("restart/tps", Track.RESTART),
              new SessionPlan.Validation("pgtune", Track.RESTART)),
          3);

  @Test
  void stepsRunPhasesInOrderWithTheirPositions() {
    List<Step> steps = PLAN.steps();
    assertEquals(3 + 4 + 5 + 3 * (1 + 2), steps.size());
    assertEquals("baseline 2/3", steps.get(1).label());
    assertEquals("sweep shared_buffers=1024MB", steps.get(4).label());
    assertEquals("sweep random_page_cost=1.1", steps.get(5).label());
    assertEquals("bayes reload 2/2", steps.get(8).label());
    assertEquals("bayes restart 1/3", steps.get(9).label());
    assertEquals("validation round 1/3 baseline", steps.get(12).label());
    assertEquals("validation round 1/3 restart/tps", steps.get(13).label());
    assertEquals("validation round 1/3 pgtune", steps.get(14).label());
    // the candidates' order rotates from round to round
    assertEquals("validation round 2/3 pgtune", steps.get(16).label());
    assertEquals("validation round 3/3 restart/tps", steps.get(19).label());
    for (int i = 0; i < steps.size(); i++) {
      assertEquals(i + 1, steps.get(i).trial());
    }
    assertTrue(steps.get(12).runsDefaults());
    assertTrue(!steps.get(13).runsDefaults());
  }

  @Test
  void nextStepFollowsTheLoggedTrialsFailuresIncluded() {
    List<Step> steps = PLAN.steps();
    List<TrialResult> logged = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Step s = steps.get(i);
      logged.add(
          i == 6
              ? Trials.failed(s.trial(), s.phase().label(), s.label(), Status.REJECTED)
              : Trials.of(s, 1000 + i, 5));
    }
    Step next = PLAN.next(logged).orElseThrow();
    assertEquals(11, next.trial());
    assertEquals(Phase.BAYES, next.phase());
    assertEquals(Track.RESTART, next.track());
    assertEquals(2, next.index());
    assertEquals(3, next.count());
  }

  @Test
  void allLoggedMeansNothingNext() {
    List<TrialResult> logged = PLAN.steps().stream().map(s -> Trials.of(s, 1000, 5)).toList();
    assertTrue(PLAN.next(logged).isEmpty());
  }

  @Test
  void planSurvivesTheJsonRoundTripWithTheSameSteps() throws Exception {
    String json = org.pgknob.Json.mapper().writeValueAsString(PLAN);
    SessionPlan back = org.pgknob.Json.mapper().readValue(json, SessionPlan.class);
    assertEquals(PLAN.steps(), back.steps());
  }

  @Test
  void refusesTrialsThatDoNotFollowThePlan() {
    List<Step> steps = PLAN.steps();
    List<TrialResult> logged =
        List.of(Trials.of(steps.get(0), 1000, 5), Trials.of(steps.get(4), 1000, 5));
    PgknobException e = assertThrows(PgknobException.class, () -> PLAN.next(logged));
    assertTrue(
        e.getMessage()
            .startsWith(
                "trials.jsonl does not follow the session's plan at trial 2: logged #5 'sweep"
                    + " shared_buffers=1024MB', planned 'baseline 2/3'"),
        e.getMessage());
  }

  @Test
  void refusesAPlanWithFewerThanThreeBaselinesOrTwoPairs() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new SessionPlan(2, List.of(), List.of(), List.of(), 3));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new SessionPlan(
                3,
                List.of(),
                List.of(),
                List.of(new SessionPlan.Validation("pgtune", Track.RESTART)),
                1));
  }
}
