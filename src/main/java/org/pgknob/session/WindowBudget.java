package org.pgknob.session;

import java.util.List;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;

/**
 * What a budget leaves a session at one window length: the trials that fit and the validation
 * rounds its plan reserves for them. A longer window makes each run quieter but leaves fewer trials
 * and rounds; this is the counting side of that trade ({@link org.pgknob.measure.WindowChoice}
 * weighs it).
 *
 * @param budget the session's budget: its trials, if given, stay the most trials
 * @param timeSeconds the wall time the budget stands for: its own, or for a budget of trials only
 *     what those trials take at the session's first window, so that a longer window trades trials
 *     for quieter runs within the time the user expected rather than making the session longer
 * @param doneTrials trials already run that any plan keeps (the baselines), 0 for a whole session
 * @param doneSeconds the time those trials count for
 * @param tracks the session's tracks
 * @param objective the session's objective
 */
record WindowBudget(
    Budget budget,
    double timeSeconds,
    int doneTrials,
    double doneSeconds,
    List<Track> tracks,
    Goal objective) {

  /** A whole session's budget (nothing run yet) for trials of {@code firstTrialSeconds}. */
  static WindowBudget whole(Budget budget, double firstTrialSeconds, SessionInputs inputs) {
    return new WindowBudget(
        budget, timeOf(budget, firstTrialSeconds), 0, 0, inputs.tracks(), inputs.objective());
  }

  /** The wall time of {@code budget}, or what its trials take at {@code trialSeconds} each. */
  static double timeOf(Budget budget, double trialSeconds) {
    return budget.wallTime() != null
        ? budget.wallTime().toSeconds()
        : budget.trials() * trialSeconds;
  }

  /** The trials of the whole session when each further trial takes {@code trialSeconds}. */
  int trials(double trialSeconds) {
    long byTime = doneTrials + (long) Math.floor((timeSeconds - doneSeconds) / trialSeconds);
    long cap = budget.trials() == null ? Integer.MAX_VALUE : budget.trials();
    return (int) Math.max(doneTrials, Math.min(cap, byTime));
  }

  /** Whether a session of those trials can be planned: at least the minimum, with the baselines. */
  boolean fits(double trialSeconds) {
    int baseline = doneTrials > 0 ? doneTrials : Budget.MIN_BASELINE_RUNS;
    return trials(trialSeconds)
        >= Budget.minimumTrials(ValidationStats.MIN_VALIDATION_PAIRS, tracks.size())
            + baseline
            - Budget.MIN_BASELINE_RUNS;
  }

  /**
   * How the session's trials are shared at {@code trialSeconds}; call only when it {@link #fits}.
   */
  Budget.Shares shares(double trialSeconds) {
    int total = trials(trialSeconds);
    int pairs = ValidationStats.MIN_VALIDATION_PAIRS;
    return doneTrials > 0
        ? Budget.apportion(total, tracks, objective, true, pairs, doneTrials)
        : Budget.apportion(total, tracks, objective, true, pairs);
  }

  /** The validation rounds the plan reserves at {@code trialSeconds}, 0 when it does not fit. */
  int validationRounds(double trialSeconds) {
    return fits(trialSeconds) ? shares(trialSeconds).validationPairs() : 0;
  }
}
