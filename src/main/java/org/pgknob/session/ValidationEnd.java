package org.pgknob.session;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The console line that ends validation: how many rounds it took, whether every ratio reached the
 * target, and which runs were left out (picks that are the defaults, rounds cut for a drop).
 */
final class ValidationEnd {
  private ValidationEnd() {}

  /**
   * For a plan of fixed rounds ({@code pgknob compare}): which runs were left out for a drop, and
   * so on how many pairs the sparest ratio rests on; empty when none was.
   */
  static Optional<String> fixedRounds(List<TrialResult> logged) {
    ValidationDrops dropped = ValidationDrops.of(logged);
    if (dropped.rounds().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("  left out with their pairs, for a drop: " + dropped.describe());
  }

  /** "validation decided after 4 of 6 rounds" or "validation used all 6 rounds: ...". */
  static Optional<String> line(
      SessionPlan plan, List<TrialResult> logged, Set<String> sameAsDefaults) {
    ValidationRounds rounds = new ValidationRounds(plan, sameAsDefaults);
    long runs = logged.stream().filter(t -> t.phase() == Phase.VALIDATION).count();
    int perRound = 1 + rounds.candidates().size();
    ValidationDrops dropped = ValidationDrops.of(logged);
    long done = runs / perRound;
    // the ratio with the fewest pairs: a drop costs its own ratio a pair, the defaults' drop each
    long fewest = done - dropped.mostPairsLost(rounds.candidates());
    String fewestPairs =
        fewest == done
            ? ""
            : "; the ratio with the fewest pairs rests on "
                + fewest
                + " of them (a run left out for a drop)";
    String left =
        (sameAsDefaults.isEmpty()
                ? ""
                : "; left out (the defaults, or the same settings as PGTune-style or a pick validated): "
                    + String.join(", ", sameAsDefaults))
            + (dropped.rounds().isEmpty()
                ? ""
                : "; left out with their pairs, for a drop: " + dropped.describe());
    boolean decided = rounds.decided(logged);
    if (fewest < plan.validationPairs() && !decided) {
      return Optional.of(
          (done < plan.validationPairs()
                  ? "  validation stopped after "
                      + done
                      + " of at most "
                      + plan.validationPairs()
                      + " rounds: another would not fit the budget's time left"
                  : "  validation used all " + done + " rounds the budget allows")
              + fewestPairs
              + "; some ratios are still wider than the target"
              + left);
    }
    if (fewest < plan.validationPairs()) {
      return Optional.of(
          "  validation decided after "
              + done
              + " of at most "
              + plan.validationPairs()
              + " rounds"
              + fewestPairs
              + left);
    }
    return Optional.of(
        "  validation used all "
            + done
            + " rounds the budget allows"
            + (decided
                ? ""
                : "; some ratios are still wider than the target (a larger --budget narrows them)")
            + fewestPairs
            + left);
  }
}
