package org.pgknob.session;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.pgknob.trial.TrialResult;

/**
 * Validation rounds counted from the time a budget with a wall time has left, not from the trial
 * length the plan assumed.
 *
 * <p>Why: the plan turns the wall time into trials through an estimated trial length (a restart
 * each, {@link Budget#estimateTrialSeconds}), and real trials are often quicker (a 60-minute
 * session planned 31 s, its trials took 22 s, and it ended after 42 minutes with its validation's
 * intervals still wide). The search keeps its planned trials, so it is never starved; the time its
 * quicker trials saved goes to validation, where more rounds narrow every interval.
 *
 * <p>How: when validation starts, its rounds are the budget's wall time less the time the logged
 * trials took, divided by one round's time (one run of the defaults and of each candidate, at the
 * logged trials' mean length); never fewer than the plan's rounds, and never past the budget's
 * trials when it gives them too. A round beyond the plan's starts only if it fits the time left
 * ({@link #nextRoundFits}). Both read only the trials' logged timings, so a session resumed after
 * kill -9 counts the same rounds and proposes the same next run. A trial counts its own time (reset
 * to checkpoint), as the plan counted it: setup and a stop before a resume are not spent budget.
 */
final class ValidationTime {
  private ValidationTime() {}

  /**
   * The plan with its validation rounds re-counted from the time left after {@code search} (the
   * trials before validation), or the plan itself when its budget has no wall time or the count
   * does not change.
   *
   * @param perRound the runs of one round: the defaults and each candidate not left out
   */
  static SessionPlan recounted(SessionPlan plan, List<TrialResult> search, int perRound) {
    int rounds = rounds(plan, search, perRound);
    return rounds == plan.validationPairs() ? plan : plan.withValidationRounds(rounds);
  }

  /** The most validation rounds after {@code search}: see the class comment. */
  static int rounds(SessionPlan plan, List<TrialResult> search, int perRound) {
    return rounds(plan, search, 0, perRound);
  }

  /**
   * The trials the session will run in all as far as the trials logged so far tell, for the
   * console's time left: before validation starts, the plan's total with the rounds that the
   * re-count would add if the search's remaining trials took the mean length so far; from then on,
   * {@code mostTrials}, the re-counted plan's.
   *
   * <p>Why: a default session (a wall-time budget) plans its trials at an estimated length and
   * quicker trials buy more validation rounds only when validation starts, so a time left counted
   * from the plan's trials alone said 8 min at its second trial where 10 followed.
   *
   * @param mostTrials the plan's trials less the validation runs of candidates left out
   */
  static int expectedTrials(SessionPlan plan, List<TrialResult> logged, int mostTrials) {
    int searchLeft = plan.searchTrials() - logged.size();
    if (wallTime(plan) == null || searchLeft <= 0) {
      return mostTrials;
    }
    int perRound = 1 + plan.validations().size();
    int added = rounds(plan, logged, searchLeft, perRound) - plan.validationPairs();
    return mostTrials + Math.max(0, added) * perRound;
  }

  /**
   * The most validation rounds after {@code trials} and {@code searchLeft} more search trials of
   * the mean length so far.
   */
  private static int rounds(
      SessionPlan plan, List<TrialResult> trials, int searchLeft, int perRound) {
    SessionPlan.WallTime wall = wallTime(plan);
    OptionalDouble trialSeconds = trialSeconds(plan, trials);
    if (wall == null || trialSeconds.isEmpty()) {
      return plan.validationPairs();
    }
    double mean = trialSeconds.getAsDouble();
    double left = wall.budgetSeconds() - usedSeconds(trials, mean) - searchLeft * mean;
    long byTime = (long) Math.floor(left / (perRound * mean));
    long searchTrials = (long) trials.size() + searchLeft;
    long byTrials =
        wall.mostTrials() == null
            ? Long.MAX_VALUE
            // the plan's rounds, not the runs of candidates left out, are what trials may buy
            : (wall.mostTrials() - searchTrials) / (1 + plan.plannedValidations());
    return (int) Math.max(wall.plannedRounds(), Math.min(byTime, byTrials));
  }

  /**
   * Whether one more round of {@code perRound} runs fits the budget's time after {@code before}, at
   * the mean length of the trials so far. Asked only for rounds beyond the plan's: those always
   * run.
   */
  static boolean nextRoundFits(SessionPlan plan, List<TrialResult> before, int perRound) {
    SessionPlan.WallTime wall = wallTime(plan);
    OptionalDouble trialSeconds = trialSeconds(plan, before);
    if (wall == null || trialSeconds.isEmpty()) {
      return true;
    }
    double mean = trialSeconds.getAsDouble();
    return usedSeconds(before, mean) + perRound * mean <= wall.budgetSeconds();
  }

  /**
   * The rounds the plan reserved before any re-count, beyond which a round must fit the time left.
   */
  static int plannedRounds(SessionPlan plan) {
    SessionPlan.WallTime wall = wallTime(plan);
    return wall == null ? plan.validationPairs() : wall.plannedRounds();
  }

  /**
   * The budget spent by {@code trials}: each one's logged total; one that logged none (it failed
   * before it ran) counts as a trial of the mean length.
   */
  static double usedSeconds(List<TrialResult> trials, double meanSeconds) {
    double sum = 0;
    for (TrialResult t : trials) {
      Double total = t.timingsSeconds().get("total");
      sum += total != null && total > 0 ? total : meanSeconds;
    }
    return sum;
  }

  /**
   * "validation: up to 15 rounds (the plan had 7): they fit the 18 min left; trials took 22 s, the
   * plan assumed 31 s", once the count changed.
   */
  static Optional<String> line(
      SessionPlan before, SessionPlan after, List<TrialResult> search, double plannedSeconds) {
    SessionPlan.WallTime wall = wallTime(after);
    OptionalDouble trialSeconds = trialSeconds(after, search);
    if (wall == null
        || trialSeconds.isEmpty()
        || before.validationPairs() == after.validationPairs()) {
      return Optional.empty();
    }
    double left = wall.budgetSeconds() - usedSeconds(search, trialSeconds.getAsDouble());
    return Optional.of(
        String.format(
            Locale.ROOT,
            "validation: up to %d rounds (the plan had %d): they fit the %s left; trials took"
                + " %.0f s, the plan assumed %.0f s",
            after.validationPairs(),
            wall.plannedRounds(),
            PlanSummary.duration(Math.round(left)),
            trialSeconds.getAsDouble(),
            plannedSeconds));
  }

  /**
   * The logged trials' mean length, counted at the window of the trials still to run when the plan
   * knows it (a --duration auto session's baselines ran a shorter one).
   */
  private static OptionalDouble trialSeconds(SessionPlan plan, List<TrialResult> trials) {
    SessionPlan.WallTime wall = wallTime(plan);
    return wall == null || wall.windowSeconds() == null
        ? Budget.observedTrialSeconds(trials)
        : Budget.observedTrialSeconds(trials, wall.windowSeconds());
  }

  private static SessionPlan.WallTime wallTime(SessionPlan plan) {
    return plan.validating() == null ? null : plan.validating().wallTime();
  }
}
