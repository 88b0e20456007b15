package org.pgknob.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.pgknob.optimize.PredictedChange;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

/**
 * Leaves at their defaults the settings of a pick that the session's evidence does not support, so
 * that what validation measures and the exports recommend holds only settings that did something. A
 * Bayesian search sets every knob it searches, and its best configuration carries settings that
 * happened to ride along with the ones that mattered: a 60-minute session's reload pick was
 * synchronous_commit=off (the whole +60%) with effective_cache_size=128MB, random_page_cost=6 and
 * work_mem=1MB, none of which a DBA would apply on that evidence.
 *
 * <p>The rule, greedy over the pick's settings that differ from the default: among the settings
 * whose revert the rule admits, revert the one whose predicted loss has the smallest upper bound,
 * and repeat while one is admitted. A revert is admitted when, for the pick against the pick with
 * every revert so far and this one ({@link PredictedChange}, the fitted model's posterior of the
 * change, with the two configurations' covariance):
 *
 * <ol>
 *   <li>the predicted loss is at most {@link #LOSS_TOLERANCE} (1%): the model's best estimate says
 *       the reverts together cost nothing worth having;
 *   <li>the loss at {@link #SDS} posterior sds is at most the margin ({@link #margin}: a quarter of
 *       the smallest gain the session's validation can detect, at least 1%): the posterior does not
 *       leave room for a loss that validation could see. A setting the model knows little about
 *       (few trials moved it, or they disagree) has a wide posterior and is kept;
 *   <li>the setting's own sweep did not measure an effect ({@code protectedKnobs}: a sweep range
 *       beyond {@link org.pgknob.optimize.SweepAnalysis#EFFECT_NOISE_MULTIPLE} times the noise):
 *       one-at-a-time evidence against the baseline outranks a model that may have smoothed it
 *       away;
 *   <li>the configuration stays admissible ({@code admissible}: the safety rules, whose relations
 *       tie settings together) and no protected setting becomes inactive through it.
 * </ol>
 *
 * <p>Why the upper bound orders the reverts and not the mean, as a plain backward elimination
 * would: a revert the posterior is sure of leaves the most room under both bounds for the next
 * ones. Why both bounds and not the mean alone: with 7% noise per run, a knob that two trials moved
 * has a posterior mean near 0 and an sd of several percent; the mean alone would drop it on no
 * evidence either way. The rule depends only on the model (fitted from the logged trials with the
 * session's seed) and the pick, so a resumed session simplifies the same.
 */
final class PickSimplifier {
  /** The most the reverts together may cost by the model's mean, as a log ratio (about 1%). */
  static final double LOSS_TOLERANCE = 0.01;

  /** Posterior standard deviations above the mean at which the loss is bounded. */
  static final double SDS = 2;

  /** What the model predicts for a change of configuration; empty without a model. */
  interface Model {
    Optional<PredictedChange> change(Configuration from, Configuration to);
  }

  /**
   * A pick and what is left of it.
   *
   * @param pick the pick as the search found it, without settings at their defaults
   * @param simplified the pick with the reverts applied (the pick itself when none)
   * @param dropped the settings left at their defaults, with the pick's values, as PostgreSQL takes
   *     them
   * @param predictedLoss the model's mean loss of all the reverts together, a log ratio (0 when
   *     none)
   * @param lossUpperBound that loss at {@link #SDS} posterior sds
   * @param margin the bound the upper bound was held to
   */
  record Result(
      Configuration pick,
      Configuration simplified,
      Map<String, String> dropped,
      double predictedLoss,
      double lossUpperBound,
      double margin) {
    boolean changed() {
      return !dropped.isEmpty();
    }

    /**
     * "effective_cache_size=128MB, random_page_cost=6 left at their defaults (the model predicts
     * -0.4% together, at worst -2.1% at 2 sd, within a margin of 5.0%; no sweep measured an effect
     * of theirs)".
     */
    String describe() {
      List<String> settings = new ArrayList<>();
      dropped.forEach((k, v) -> settings.add(k + "=" + v));
      boolean one = dropped.size() == 1;
      return String.format(
          Locale.ROOT,
          "%s left at %s (the model predicts %+.1f%%%s, at worst %+.1f%% at %.0f sd, within a"
              + " margin of %.1f%%; no sweep measured an effect of %s)",
          String.join(", ", settings),
          one ? "its default" : "their defaults",
          100 * Math.expm1(-predictedLoss),
          one ? "" : " together",
          100 * Math.expm1(-lossUpperBound),
          SDS,
          100 * -Math.expm1(-margin),
          one ? "it" : "theirs");
    }
  }

  private final SearchSpace space;
  private final Model model;
  private final Set<String> protectedKnobs;
  private final Predicate<Configuration> admissible;
  private final double margin;

  /**
   * @param space the track's space
   * @param model the track's model, fitted as the pick's was
   * @param protectedKnobs knobs whose sweep measured an effect beyond the noise: never reverted
   * @param admissible the safety rules' verdict on a configuration
   * @param margin the largest loss at {@link #SDS} sds a revert may leave room for, a log ratio
   */
  PickSimplifier(
      SearchSpace space,
      Model model,
      Set<String> protectedKnobs,
      Predicate<Configuration> admissible,
      double margin) {
    this.space = space;
    this.model = model;
    this.protectedKnobs = Set.copyOf(protectedKnobs);
    this.admissible = admissible;
    this.margin = margin;
  }

  /**
   * The margin for a session whose validation can tell gains of {@code detectableGain} (a fraction;
   * infinite or NaN when it cannot tell any) from noise: a quarter of it as a log ratio, never
   * below {@link #LOSS_TOLERANCE}. A loss that small is beyond what the session could ever show, so
   * the evidence cannot support the setting that avoids it.
   */
  static double margin(double detectableGain) {
    if (!Double.isFinite(detectableGain)) {
      return LOSS_TOLERANCE;
    }
    return Math.max(LOSS_TOLERANCE, Math.log1p(detectableGain) / 4);
  }

  Result simplify(Configuration proposed) {
    Configuration pick = StepProposer.withoutDefaults(proposed, space);
    Configuration current = pick;
    PredictedChange total = null;
    while (true) {
      Configuration bestNext = null;
      PredictedChange best = null;
      for (String knob : new TreeSet<>(current.values().keySet())) {
        if (protectedKnobs.contains(knob)) {
          continue;
        }
        Configuration next = space.dropInactive(current.without(knob));
        if (!keepsProtected(current, next) || !admissible.test(next)) {
          continue;
        }
        Optional<PredictedChange> change = model.change(pick, next);
        if (change.isEmpty()) {
          return unchanged(pick); // no model: nothing to weigh a revert with
        }
        PredictedChange c = change.get();
        boolean admitted = c.loss() <= LOSS_TOLERANCE && c.lossUpperBound(SDS) <= margin;
        if (admitted && (best == null || c.lossUpperBound(SDS) < best.lossUpperBound(SDS))) {
          best = c;
          bestNext = next;
        }
      }
      if (best == null) {
        break;
      }
      current = bestNext;
      total = best;
    }
    if (total == null || !admissible.test(current)) {
      return unchanged(pick);
    }
    Map<String, String> dropped = new java.util.TreeMap<>(pick.rendered(space));
    dropped.keySet().removeAll(current.values().keySet());
    return new Result(pick, current, dropped, total.loss(), total.lossUpperBound(SDS), margin);
  }

  /** True when every protected setting of {@code before} is still set in {@code after}. */
  private boolean keepsProtected(Configuration before, Configuration after) {
    for (String knob : before.values().keySet()) {
      if (protectedKnobs.contains(knob) && !after.has(knob)) {
        return false;
      }
    }
    return true;
  }

  private Result unchanged(Configuration pick) {
    return new Result(pick, pick, Map.of(), 0, 0, margin);
  }
}
