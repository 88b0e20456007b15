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
 * and repeat while one is admitted. The model is the track's, fitted as the pick's was; its
 * predictions ({@link PredictedChange}) are posteriors of a change between two configurations, with
 * their covariance, so that a revert along a knob the model found inert is nearly certain even
 * where the value itself is not. A revert is admitted when:
 *
 * <ol>
 *   <li>alone (the current configuration against it without the setting), its loss at {@link #SDS}
 *       posterior sds is below the margin ({@link #margin}: a quarter of the smallest gain the
 *       session's validation can detect, between 1% and 2%): the posterior does not leave room for
 *       the setting to matter. A setting the model knows little about (few trials moved it, or they
 *       disagree) has a wide posterior and is kept;
 *   <li>together with the reverts before it (the pick against the pick without all of them), the
 *       model's mean loss is at most {@link #LOSS_TOLERANCE} (1%) and its loss at {@link #SDS}
 *       posterior sds within the margin: the reverts together cost nothing worth having, and the
 *       posterior leaves no room for them to;
 *   <li>the setting's own sweep did not lead the defaults beyond the noise ({@code protectedKnobs}:
 *       {@link org.pgknob.optimize.KnobSensitivity#bestLeadsBeyondNoise}): one-at-a-time evidence
 *       against the baseline outranks a model that may have smoothed it away;
 *   <li>the configuration stays admissible ({@code admissible}: the safety rules, whose relations
 *       tie settings together) and no protected setting becomes inactive through it.
 * </ol>
 *
 * <p>Why a quarter of the detectable gain, and never more than 2%: with the whole gain as the
 * margin, a 40-trial session of the noise benchmark (7% noise, a detectable gain of 25%) left
 * work_mem=30MB out of its restart pick, worth 4% there, which its model, at that noise, had not
 * learnt (its capture of the achievable gain fell from 93% to 82%); with a quarter (7.3% in another
 * run of the same seed) it left out work_mem=72MB (84% to 77%). Where the model has learnt little,
 * the posterior's width is no guide, so the margin is capped at about the size of the smallest
 * effects the benchmark's workload has. A setting the posterior cannot bound within it may still
 * carry a gain the session could not measure, and a pick that keeps a passenger loses nothing. Why
 * the reverts are bounded one at a time and their mean together: bounding the sum's upper bound as
 * well stopped after two or three reverts, each adding its uncertainty. Why the upper bound orders
 * the reverts: a revert the posterior is sure of leaves the most room for the next ones. The rule
 * depends only on the model (fitted from the logged trials with the session's seed) and the pick,
 * so a resumed session simplifies the same; validation then measures the simplified pick, so a loss
 * the model missed shows in its interval.
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
     * -0.4% together, -1.3% at 2 sd; alone, none below -1.5% at 2 sd, the margin for this session's
     * noise; no sweep of theirs led the defaults beyond the noise)".
     */
    String describe() {
      List<String> settings = new ArrayList<>();
      dropped.forEach((k, v) -> settings.add(k + "=" + v));
      boolean one = dropped.size() == 1;
      return String.format(
          Locale.ROOT,
          "%s left at %s (the model predicts %+.1f%%%s, %+.1f%% at %.0f sd; %s below %+.1f%% at"
              + " %.0f sd, the margin for this session's noise; no sweep of %s led the defaults"
              + " beyond the noise)",
          String.join(", ", settings),
          one ? "its default" : "their defaults",
          100 * Math.expm1(-predictedLoss),
          one ? "" : " together",
          100 * Math.expm1(-lossUpperBound),
          SDS,
          one ? "not" : "alone, none",
          100 * Math.expm1(-margin),
          SDS,
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
   * @param protectedKnobs knobs whose sweep's best led the defaults beyond the noise: never
   *     reverted
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
   * infinite or NaN when it cannot tell any) from noise: a quarter of that gain as a log ratio,
   * within [{@link #LOSS_TOLERANCE}, {@link #LARGEST_MARGIN}].
   */
  static double margin(double detectableGain) {
    if (!Double.isFinite(detectableGain)) {
      return LARGEST_MARGIN;
    }
    return Math.min(LARGEST_MARGIN, Math.max(LOSS_TOLERANCE, Math.log1p(detectableGain) / 4));
  }

  /**
   * The largest margin, a log ratio of about 2%, whatever the noise: where validation cannot see
   * gains under 25%, a quarter of that (6-7%) left out settings worth 3-4% that the model had not
   * learnt.
   */
  static final double LARGEST_MARGIN = 0.02;

  Result simplify(Configuration proposed) {
    Configuration pick = StepProposer.withoutDefaults(proposed, space);
    Configuration current = pick;
    PredictedChange total = null;
    while (true) {
      Configuration bestNext = null;
      PredictedChange best = null;
      PredictedChange bestTotal = null;
      for (String knob : new TreeSet<>(current.values().keySet())) {
        if (protectedKnobs.contains(knob)) {
          continue;
        }
        Configuration next = space.dropInactive(current.without(knob));
        if (!keepsProtected(current, next) || !admissible.test(next)) {
          continue;
        }
        Optional<PredictedChange> alone = model.change(current, next);
        Optional<PredictedChange> together = model.change(pick, next);
        if (alone.isEmpty() || together.isEmpty()) {
          return unchanged(pick); // no model: nothing to weigh a revert with
        }
        PredictedChange c = alone.get();
        // together too, the posterior must leave no room for a loss beyond the margin: with the
        // mean alone, a noise-bench pick lost max_wal_size, random_page_cost and work_mem (half
        // of its gain) among 13 reverts the model predicted at -0.2% together, -4% at 2 sd
        boolean admitted =
            c.lossUpperBound(SDS) <= margin
                && together.get().loss() <= LOSS_TOLERANCE
                && together.get().lossUpperBound(SDS) <= margin;
        if (admitted && (best == null || c.lossUpperBound(SDS) < best.lossUpperBound(SDS))) {
          best = c;
          bestNext = next;
          bestTotal = together.get();
        }
      }
      if (best == null) {
        break;
      }
      current = bestNext;
      total = bestTotal;
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
