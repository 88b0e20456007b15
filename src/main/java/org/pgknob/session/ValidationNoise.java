package org.pgknob.session;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.pgknob.measure.PairNoise;
import org.pgknob.measure.PairedRatio;
import org.pgknob.measure.RunNoise;
import org.pgknob.runs.Goal;
import org.pgknob.trial.TrialResult;

/**
 * The noise validation's intervals rest on: the spread of the validation pairs themselves once they
 * give {@link #MIN_DEGREES_OF_FREEDOM} degrees of freedom ({@link PairNoise}: drift cancels within
 * a pair), before that the session's pooled run noise ({@link SessionMeasurements#noise()}). One
 * rule for every validated ratio (against the defaults, against PGTune-style) and for validation's
 * stopping rule, so that the console, the rows and the verdict agree.
 */
final class ValidationNoise {
  /**
   * The fewest degrees of freedom (after {@link PairNoise}'s discount for the defaults' runs the
   * candidates share) the pairs' spread must give before it replaces the session's pooled noise: 3
   * rounds of 3 or more candidates, 4 rounds of 2, or 5 rounds of one.
   */
  static final int MIN_DEGREES_OF_FREEDOM = 4;

  private ValidationNoise() {}

  /** The noise for validation's ratios on {@code objective} after {@code trials}. */
  static RunNoise of(List<TrialResult> trials, Goal objective) {
    RunNoise pairs = ofPairs(trials, objective);
    return pairs.degreesOfFreedom() >= MIN_DEGREES_OF_FREEDOM
        ? pairs
        : new SessionMeasurements(trials, objective).noise();
  }

  /**
   * The paired ratio B / A of {@code pairs} ({A, B} on {@code objective}, at least 2) with its 95%
   * interval, on the noise this class chooses: the validation pairs' own spread, which already
   * holds these pairs ({@link PairedRatio#ofPairsInPool}), or the session's pooled run noise
   * ({@link ValidationStats#paired}).
   */
  static PairedRatio ratio(List<double[]> pairs, List<TrialResult> trials, Goal objective) {
    return ratio(pairs, trials, objective, ValidationStats.CONFIDENCE);
  }

  /** {@link #ratio(List, List, Goal)} with an interval of another confidence. */
  static PairedRatio ratio(
      List<double[]> pairs, List<TrialResult> trials, Goal objective, double confidence) {
    double[] a = pairs.stream().mapToDouble(p -> p[0]).toArray();
    double[] b = pairs.stream().mapToDouble(p -> p[1]).toArray();
    RunNoise fromPairs = ofPairs(trials, objective);
    if (fromPairs.degreesOfFreedom() >= MIN_DEGREES_OF_FREEDOM) {
      return PairedRatio.ofPairsInPool(a, b, confidence, fromPairs);
    }
    return PairedRatio.of(a, b, confidence, new SessionMeasurements(trials, objective).noise());
  }

  /**
   * " validation's intervals rest on its pairs' own noise: 7.3% a run (28 pairs of 4 candidates, 12
   * degrees of freedom); the session's pooled run noise, which its drift inflates, is 15.9%", or
   * empty while the pairs give too few degrees of freedom (the pooled noise is used then).
   */
  static Optional<String> line(List<TrialResult> trials, Goal objective) {
    RunNoise pairs = ofPairs(trials, objective);
    if (pairs.degreesOfFreedom() < MIN_DEGREES_OF_FREEDOM) {
      return Optional.empty();
    }
    RunNoise pooled = new SessionMeasurements(trials, objective).noise();
    return Optional.of(
        String.format(
            Locale.ROOT,
            "  validation's intervals rest on its pairs' own noise: %.1f%% a run (%d pairs of %d"
                + " candidate%s, %d degrees of freedom); the session's run noise, pooled over"
                + " its whole time, is %.1f%%",
            100 * pairs.cv(),
            pairs.runs(),
            pairs.configurations(),
            pairs.configurations() == 1 ? "" : "s",
            pairs.degreesOfFreedom(),
            100 * pooled.cv()));
  }

  /**
   * The validation pairs' own spread: every candidate's log ratios to the defaults' run of the same
   * round, pairs that hold a run that dropped left out ({@link ValidationDrops}), so the degrees of
   * freedom count the kept pairs only.
   */
  static RunNoise ofPairs(List<TrialResult> trials, Goal objective) {
    Set<String> candidates = new LinkedHashSet<>();
    for (TrialResult t : trials) {
      // ValidationDrops reads validation's labels: round > 0 is a validation run
      if (ValidationDrops.round(t) > 0
          && !SessionPlan.BASELINE.equals(ValidationDrops.subject(t))) {
        candidates.add(ValidationDrops.subject(t));
      }
    }
    ValidationDrops dropped = ValidationDrops.of(trials);
    List<double[]> byCandidate = new ArrayList<>();
    for (String c : candidates) {
      List<Double> logs = new ArrayList<>();
      for (TrialResult[] p :
          ValidationRounds.runsByRound(SessionPlan.BASELINE, c, trials, dropped)) {
        if (p[0] != null && p[1] != null && p[0].isOk() && p[1].isOk()) {
          double a = Objectives.value(p[0], objective);
          double b = Objectives.value(p[1], objective);
          if (a > 0 && b > 0 && Double.isFinite(a) && Double.isFinite(b)) {
            logs.add(Math.log(b / a));
          }
        }
      }
      byCandidate.add(logs.stream().mapToDouble(Double::doubleValue).toArray());
    }
    return PairNoise.of(byCandidate);
  }
}
