package org.pgknob.session;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.pgknob.optimize.KnobSensitivity;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.TrialResult;

/**
 * The knobs a track's Bayesian phase searches. A Gaussian process learns little in 30 dimensions
 * from a few dozen trials, so each track searches the knobs most likely to matter and leaves the
 * rest at their defaults:
 *
 * <ol>
 *   <li>knobs whose sweep showed an effect beyond the noise, largest first;
 *   <li>then the expert order of sweep order of the search-space file ({@code sweep:}), skipping
 *       knobs a sweep found without effect;
 *   <li>then the rest of the space in file order.
 * </ol>
 *
 * The reload track takes the first {@code k} reload knobs; the restart track takes the same reload
 * knobs (so every reload-track trial warm-starts it) plus the first {@code r} knobs that need a
 * restart. Both depend only on the sweeps' logged trials, so a resumed session chooses the same
 * knobs.
 */
final class BayesKnobs {
  private BayesKnobs() {}

  /** Reload knobs searched for a track with this many iterations. */
  static int reloadKnobs(int iterations) {
    return Math.max(6, Math.min(12, 4 + iterations / 5));
  }

  /** Restart-only knobs added for the restart track. */
  static int restartKnobs(int iterations) {
    return Math.max(3, Math.min(6, 2 + iterations / 10));
  }

  static SearchSpace choose(
      TuningSession.SessionContext context,
      String track,
      int iterations,
      boolean sessionHasReloadTrack,
      List<TrialResult> sweepsAndBaseline,
      String objective) {
    SearchSpace space = context.space();
    List<String> order = ranked(context, sweepsAndBaseline, objective);
    Set<String> chosen = new LinkedHashSet<>();
    int reloadCount =
        "reload".equals(track) || sessionHasReloadTrack
            ? reloadKnobs(iterations)
            : reloadKnobs(iterations) + restartKnobs(iterations);
    for (String name : order) {
      if (chosen.size() >= reloadCount) {
        break;
      }
      if (!context.bound().needsRestart(name)) {
        chosen.add(name);
      }
    }
    if ("restart".equals(track)) {
      int added = 0;
      for (String name : order) {
        if (added >= restartKnobs(iterations)) {
          break;
        }
        if (context.bound().needsRestart(name) && chosen.add(name)) {
          added++;
        }
      }
    }
    addConditionParents(space, chosen);
    return space.subset(k -> chosen.contains(k.name()));
  }

  /** Every knob of the space, most promising first. */
  static List<String> ranked(
      TuningSession.SessionContext context, List<TrialResult> trials, String objective) {
    SearchSpace space = context.space();
    SweepAnalysis analysis =
        SweepAnalysis.of(
            space,
            Objectives.of(objective),
            Objectives.within(space, trials, t -> t.phase().isOneAtATime()),
            Double.NaN);
    Set<String> order = new LinkedHashSet<>();
    Set<String> withoutEffect = new LinkedHashSet<>();
    List<KnobSensitivity> ranking = new ArrayList<>(analysis.ranking());
    ranking.sort((a, b) -> Double.compare(b.rangeFraction(), a.rangeFraction()));
    for (KnobSensitivity s : ranking) {
      if (s.verdict() == KnobSensitivity.Verdict.EFFECT) {
        order.add(s.knob());
      } else if (s.verdict() == KnobSensitivity.Verdict.NO_EFFECT) {
        // "Within noise" is no verdict on a noisy machine: only a curve flatter than the noise
        // itself sends a knob to the back.
        withoutEffect.add(s.knob());
      }
    }
    for (String name : SweepChoice.priority(space)) {
      if (space.contains(name) && !withoutEffect.contains(name)) {
        order.add(name);
      }
    }
    for (Knob k : space.knobs()) {
      if (!withoutEffect.contains(k.name())) {
        order.add(k.name());
      }
    }
    order.addAll(withoutEffect);
    return new ArrayList<>(order);
  }

  /** A conditional knob brings the knob it depends on, or it would be searched blind. */
  private static void addConditionParents(SearchSpace space, Set<String> chosen) {
    for (String name : List.copyOf(chosen)) {
      Knob k = space.knob(name);
      if (k.condition() != null && space.contains(k.condition().knob())) {
        chosen.add(k.condition().knob());
      }
    }
  }
}
