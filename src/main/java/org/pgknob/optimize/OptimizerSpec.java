package org.pgknob.optimize;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.pgknob.PgknobException;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

/**
 * What every optimizer is built from: the space, the objective, a seed, the known constraints, and
 * whether an already-observed configuration may be suggested again.
 *
 * @param space the knobs and their ranges; at least one knob
 * @param objective the metric to improve and its direction
 * @param seed the seed of every random choice: same seed and same observations, same suggestions
 * @param knownConstraint accepts the configurations that may be tried (e.g. the safety rules'
 *     predicted memory and relations); candidates it refuses are dropped before they are scored and
 *     are never suggested. It must be a pure function of the configuration.
 * @param allowRepeats true to allow suggesting a configuration already observed (to re-measure it)
 * @param anchors configurations known to be good guesses (a calculator's, the best values of
 *     earlier sweeps), tried first by optimizers that use them; only their knobs of this space
 *     count
 */
public record OptimizerSpec(
    SearchSpace space,
    Objective objective,
    long seed,
    Predicate<Configuration> knownConstraint,
    boolean allowRepeats,
    List<Configuration> anchors) {

  public OptimizerSpec {
    Objects.requireNonNull(space, "space");
    anchors = anchors == null ? List.of() : List.copyOf(anchors);
    Objects.requireNonNull(objective, "objective");
    Objects.requireNonNull(knownConstraint, "knownConstraint");
    if (space.size() == 0) {
      throw new PgknobException(
          "the search space " + space.source() + " has no knobs", "list at least one knob");
    }
  }

  /** A spec without anchors. */
  public OptimizerSpec(
      SearchSpace space,
      Objective objective,
      long seed,
      Predicate<Configuration> knownConstraint,
      boolean allowRepeats) {
    this(space, objective, seed, knownConstraint, allowRepeats, List.of());
  }

  /** A spec with seed 0, no known constraint, and no repeats. */
  public static OptimizerSpec of(SearchSpace space, Objective objective) {
    return new OptimizerSpec(space, objective, 0, c -> true, false);
  }

  public OptimizerSpec withSeed(long newSeed) {
    return new OptimizerSpec(space, objective, newSeed, knownConstraint, allowRepeats, anchors);
  }

  public OptimizerSpec withSpace(SearchSpace newSpace) {
    return new OptimizerSpec(newSpace, objective, seed, knownConstraint, allowRepeats, anchors);
  }

  public OptimizerSpec withKnownConstraint(Predicate<Configuration> constraint) {
    return new OptimizerSpec(space, objective, seed, constraint, allowRepeats, anchors);
  }

  public OptimizerSpec withRepeatsAllowed(boolean allow) {
    return new OptimizerSpec(space, objective, seed, knownConstraint, allow, anchors);
  }

  public OptimizerSpec withAnchors(List<Configuration> newAnchors) {
    return new OptimizerSpec(space, objective, seed, knownConstraint, allowRepeats, newAnchors);
  }
}
