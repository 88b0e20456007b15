package org.pgknob.session;

import java.util.List;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.Observation;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.Optimizers;
import org.pgknob.optimize.SurrogateKind;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Rebuilds a Bayesian model from logged trials: the one replay behind each proposal, the best
 * configuration of a track, an unvalidated result row and the model's knob ranking. The model is
 * never kept between trials, so a resumed session sees exactly what an uninterrupted one saw.
 */
final class ModelReplay {
  private ModelReplay() {}

  /**
   * A model over {@code spec}'s space that observed every logged trial of that space outside
   * validation, with drift-corrected values and their standard errors (validation runs measure
   * picks against the baseline; they are not search evidence).
   */
  static Bayes fitted(OptimizerSpec spec, SurrogateKind surrogate, List<TrialResult> logged) {
    return observed(Optimizers.bayes(spec, surrogate), spec, logged);
  }

  /**
   * As {@link #fitted}, with a constant prior mean: the model whose {@link Bayes#change} the pick's
   * simplification reads (see {@link Optimizers#bayesWithConstantMean}).
   */
  static Bayes fittedForChanges(
      OptimizerSpec spec, SurrogateKind surrogate, List<TrialResult> logged) {
    return observed(Optimizers.bayesWithConstantMean(spec, surrogate), spec, logged);
  }

  private static Bayes observed(Bayes model, OptimizerSpec spec, List<TrialResult> logged) {
    for (Observation o :
        Objectives.correctedWithin(spec.space(), logged, t -> t.phase() != Phase.VALIDATION)) {
      model.observe(o.configuration(), o.outcome());
    }
    return model;
  }
}
