package org.pgknob.session;

import java.util.List;

/**
 * A session's plan from its inputs and what it knows of the server: a new session's, a dry run's,
 * and the one --duration auto remakes.
 */
final class SessionPlanning {
  private SessionPlanning() {}

  /** How long one trial should take: reset, apply, ramp-up, window, checkpoint. */
  static double estimatedTrialSeconds(SessionContext context, SessionInputs inputs) {
    return Budget.estimateTrialSeconds(
        context.databaseBytes(), inputs.rampupSeconds(), inputs.windowSeconds(), true);
  }

  /** The session's plan for its budget: the trials it affords, shared between the phases. */
  static SessionPlan plan(SessionContext context, SessionInputs inputs) {
    int pairs = ValidationStats.MIN_VALIDATION_PAIRS;
    Budget budget = Budget.parse(inputs.budget());
    double trialSeconds = estimatedTrialSeconds(context, inputs);
    int total = budget.trialsFor(trialSeconds, pairs, inputs.tracks().size());
    return plan(
        context, inputs, Budget.apportion(total, inputs.tracks(), inputs.objective(), true, pairs));
  }

  /** The session's plan for a budget shared as {@code shares}. */
  static SessionPlan plan(SessionContext context, SessionInputs inputs, Budget.Shares shares) {
    int pairs = ValidationStats.MIN_VALIDATION_PAIRS;
    List<SessionPlan.SweepKnob> sweeps =
        SweepChoice.choose(context.space(), context.bound(), inputs.tracks(), shares.sweepTrials());
    Budget budget = Budget.parse(inputs.budget());
    SessionPlan.WallTime wallTime =
        budget.wallTime() == null
            ? null // a budget of trials only: validation keeps the plan's rounds
            : new SessionPlan.WallTime(
                budget.wallTime().toSeconds(),
                budget.trials(),
                shares.validationPairs(),
                inputs.countedWindowSeconds());
    return shares.racingPlan(
        sweeps,
        inputs.objective(),
        new SessionPlan.Validating(
            inputs.objective(), inputs.validationTarget(), pairs, inputs.seed(), wallTime));
  }
}
