package org.pgknob.session;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.pgknob.PgknobException;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.MainEffect;
import org.pgknob.optimize.Observation;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The knobs a track's Bayesian phase searches. A Gaussian process learns little in 30 dimensions
 * from a few dozen trials, so each track searches the knobs most likely to matter and leaves the
 * rest at their defaults. This class gathers the evidence from the session's trials (the sweeps'
 * effects against the baseline's noise, a model's main effects) and sizes the tracks; {@link
 * KnobSelection} makes the choice and gives its reasons.
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

  /**
   * The space a track's Bayesian phase searches after the trials logged: the knobs {@link #select}
   * picks, and every knob of the track's space the PGTune-style configuration sets (the track tries
   * that whole configuration first, as a DBA would, so its model must be able to move each of
   * them). The proposals and the model's ranking in summary.json both read it, so the ranking comes
   * from the space the track searched and the trials it ran there.
   */
  static SearchSpace searched(
      SessionContext context,
      Track track,
      int iterations,
      boolean sessionHasReloadTrack,
      List<TrialResult> logged,
      Goal objective) {
    Set<String> names =
        new TreeSet<>(
            select(context, track, iterations, sessionHasReloadTrack, logged, objective)
                .space()
                .names());
    names.addAll(pgTuneKnobs(context, context.trackSpace(track)));
    return context.space().subset(k -> names.contains(k.name()));
  }

  /**
   * The knobs of {@code space} the PGTune-style configuration sets; none when the server's facts
   * cannot be read now.
   */
  static Set<String> pgTuneKnobs(SessionContext context, SearchSpace space) {
    try {
      Set<String> out = new TreeSet<>(context.pgTune().keySet());
      out.removeIf(k -> !space.contains(k));
      return out;
    } catch (PgknobException e) {
      return Set.of();
    }
  }

  /** Bayesian trials of a track between two looks of the model for knobs left out. */
  static final int GROW_EVERY = 10;

  /**
   * The knobs a track searches after the trials logged so far, with every knob's reason: chosen at
   * the start of the phase from the sweeps and a model of the baseline and sweeps, then, after each
   * {@link #GROW_EVERY} Bayesian trials of the track, grown by the knobs a model of every trial up
   * to then finds an effect in. Each step depends only on the trials logged before it, so a resumed
   * session makes the same choices.
   */
  static KnobSelection.Result select(
      SessionContext context,
      Track track,
      int iterations,
      boolean sessionHasReloadTrack,
      List<TrialResult> logged,
      Goal objective) {
    SearchSpace space = context.space();
    List<TrialResult> beforeBayes = logged.stream().filter(t -> t.phase().isOneAtATime()).toList();
    SweepAnalysis sweeps =
        SweepAnalysis.of(
            space,
            Objectives.of(objective),
            Objectives.within(space, beforeBayes, t -> true),
            Double.NaN);
    int reload =
        track == Track.RELOAD || sessionHasReloadTrack
            ? reloadKnobs(iterations)
            : reloadKnobs(iterations) + restartKnobs(iterations);
    KnobSelection.Result result =
        KnobSelection.initial(
            space,
            context.bound()::needsRestart,
            track,
            reload,
            track == Track.RESTART ? restartKnobs(iterations) : 0,
            new KnobSelection.Evidence(sweeps, modelEffects(space, beforeBayes, objective)));
    List<TrialResult> ownBayes =
        logged.stream()
            .filter(t -> t.phase() == Phase.BAYES && track == t.track())
            .sorted(java.util.Comparator.comparingInt(TrialResult::trial))
            .toList();
    for (int seen = GROW_EVERY; seen <= ownBayes.size(); seen += GROW_EVERY) {
      int last = ownBayes.get(seen - 1).trial();
      List<TrialResult> upTo =
          logged.stream().filter(t -> t.trial() <= last && t.phase() != Phase.VALIDATION).toList();
      result =
          KnobSelection.grown(
              result,
              space,
              context.bound()::needsRestart,
              track,
              new KnobSelection.Evidence(sweeps, modelEffects(space, upTo, objective)),
              last);
    }
    return result;
  }

  /**
   * The main effects of a Gaussian process over every knob of the space fitted to these trials
   * (drift-corrected); none when there are too few for a model. The model sees knobs the track does
   * not search, since the sweeps moved them and other tracks' trials may have.
   */
  static List<MainEffect> modelEffects(
      SearchSpace space, List<TrialResult> trials, Goal objective) {
    OptimizerSpec spec = new OptimizerSpec(space, Objectives.of(objective), 17, c -> true, true);
    Bayes model = Bayes.withGaussianProcess(spec);
    for (Observation o : Objectives.correctedWithin(space, trials, t -> true)) {
      model.observe(o.configuration(), o.outcome());
    }
    return model.mainEffects();
  }
}
