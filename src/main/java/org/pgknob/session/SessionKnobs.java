package org.pgknob.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.KnobSensitivity;
import org.pgknob.optimize.Observation;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * What a session's logged trials say about its knobs, for summary.json and the report: which knobs
 * each Bayesian track searched and why, the sweeps' ranking, and the model's.
 */
final class SessionKnobs {
  private final SessionContext context;
  private final SessionInputs inputs;
  private final SessionPlan plan;
  private final List<TrialResult> trials;

  SessionKnobs(
      SessionContext context, SessionInputs inputs, SessionPlan plan, List<TrialResult> trials) {
    this.context = context;
    this.inputs = inputs;
    this.plan = plan;
    this.trials = trials;
  }

  /**
   * Each Bayesian track's knobs, searched or not, and why, as chosen after the trials logged; empty
   * before any track's Bayesian phase began.
   */
  List<Summary.KnobChoice> selection() {
    List<Summary.KnobChoice> out = new ArrayList<>();
    for (SessionPlan.BayesTrack t : plan.bayes()) {
      boolean started =
          trials.stream().anyMatch(r -> r.phase() == Phase.BAYES && t.track() == r.track());
      if (!started) {
        continue;
      }
      KnobSelection.Result result =
          BayesKnobs.select(
              context,
              t.track(),
              t.iterations(),
              inputs.tracks().contains(Track.RELOAD),
              trials,
              inputs.objective());
      // The track also searches every knob of its space the PGTune-style configuration sets
      // (BayesKnobs.searched): its anchor is the whole configuration a DBA would try.
      Set<String> pgTune = BayesKnobs.pgTuneKnobs(context, context.trackSpace(t.track()));
      for (KnobSelection.Choice c : result.choices()) {
        boolean byPgTune = !c.searched() && pgTune.contains(c.knob());
        out.add(
            new Summary.KnobChoice(
                t.track(),
                c.knob(),
                c.searched() || byPgTune,
                finite(c.sweepNoiseMultiple()),
                finite(c.modelNoiseMultiple()),
                finite(c.modelIndex()),
                c.addedAfterTrial(),
                byPgTune ? "set by the PGTune-style configuration (tried first)" : c.reason()));
      }
    }
    return out;
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : null;
  }

  /** The sweeps' ranking of the knobs by their effect on the objective. */
  List<Summary.KnobImportance> sweepRanking() {
    List<Observation> observations =
        Objectives.within(context.space(), trials, t -> t.phase().isOneAtATime());
    SweepAnalysis analysis =
        SweepAnalysis.of(
            context.space(), Objectives.of(inputs.objective()), observations, Double.NaN);
    List<Summary.KnobImportance> out = new ArrayList<>();
    for (KnobSensitivity s : analysis.ranking()) {
      out.add(new Summary.KnobImportance(s.knob(), s.rangeFraction(), s.summary()));
    }
    return out;
  }

  /**
   * The model's ranking over the knobs the last track's Bayesian phase searched, PGTune-style's
   * among them (a model over every knob of the space would need far more trials than a session has
   * to say anything; one over fewer knobs than the track searched would leave out every trial that
   * moved the others).
   */
  List<Summary.KnobImportance> modelRanking() {
    SearchSpace space = context.space();
    if (!plan.bayes().isEmpty()) {
      SessionPlan.BayesTrack last = plan.bayes().get(plan.bayes().size() - 1);
      space =
          BayesKnobs.searched(
              context,
              last.track(),
              last.iterations(),
              inputs.tracks().contains(Track.RELOAD),
              trials,
              inputs.objective());
    }
    OptimizerSpec spec =
        new OptimizerSpec(space, Objectives.of(inputs.objective()), inputs.seed(), c -> true, true);
    Bayes model = ModelReplay.fitted(spec, inputs.surrogate(), trials);
    List<Summary.KnobImportance> out = new ArrayList<>();
    model
        .knobImportance()
        .forEach(
            (knob, share) ->
                out.add(
                    new Summary.KnobImportance(
                        knob,
                        share,
                        String.format(
                            Locale.ROOT, "%.0f%% of the model's sensitivity", 100 * share))));
    return out;
  }
}
