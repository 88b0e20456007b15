package org.pgknob.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pgknob.trial.TrialResult;

/**
 * What a session's validation measures, fixed once when its search is over: the picks it leaves out
 * (the defaults, twins: {@link StepProposer#sameAsDefaults}), the picks that take their runs
 * ({@link ValidationStandIns}), and the rounds the budget's time left holds ({@link
 * ValidationTime}). All three follow from the plan and the search's trials alone, so a session
 * resumed within validation finds the same from session.json's plan; stand-ins are added only
 * before validation's first run, and the caller records the new plan in session.json before it.
 *
 * @param plan the plan validation follows: {@code plan} itself when nothing changed
 * @param proposer the proposer for that plan
 * @param leftOut the picks validation leaves out
 * @param notes what the console says of it, one line each
 */
record ValidationStart(
    SessionPlan plan, StepProposer proposer, Set<String> leftOut, List<String> notes) {

  /**
   * Whether validation is to be fixed now: the plan validates until decided, the search is over.
   */
  static boolean due(SessionPlan plan, List<TrialResult> logged) {
    return plan.validating() != null && logged.size() >= plan.searchTrials();
  }

  /**
   * @param inputs the session's tracks and objective
   * @param logged the session's trials so far: the search's, and any validation runs of a session
   *     resumed within validation
   * @param plannedTrialSeconds the trial length the plan assumed, for the re-count's line
   */
  static ValidationStart of(
      SessionPlan plan,
      StepProposer proposer,
      SessionInputs inputs,
      List<TrialResult> logged,
      double plannedTrialSeconds) {
    List<TrialResult> search = logged.subList(0, plan.searchTrials());
    List<String> notes = new ArrayList<>();
    SessionPlan current = plan;
    StepProposer currentProposer = proposer;
    if (logged.size() == plan.searchTrials()) {
      SessionPlan added =
          ValidationStandIns.added(
              plan, inputs.tracks(), inputs.objective(), v -> proposer.sameAsDefaults(v, search));
      if (added != plan) {
        ValidationStandIns.line(plan, added).ifPresent(notes::add);
        current = added;
        currentProposer = proposer.forPlan(added);
      }
    }
    Set<String> leftOut = currentProposer.sameAsDefaults(search);
    int perRound = new ValidationRounds(current, leftOut).perRound();
    SessionPlan recounted = ValidationTime.recounted(current, search, perRound);
    ValidationTime.line(current, recounted, search, plannedTrialSeconds).ifPresent(notes::add);
    return new ValidationStart(recounted, currentProposer.forPlan(recounted), leftOut, notes);
  }
}
