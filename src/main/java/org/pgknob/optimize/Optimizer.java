package org.pgknob.optimize;

import org.pgknob.space.Configuration;

/**
 * An ask/tell optimizer over a {@link org.pgknob.space.SearchSpace}.
 *
 * <p>Contract, checked for every implementation by one contract test suite:
 *
 * <ul>
 *   <li>{@link #suggest()} returns a configuration the space admits: within bounds, integers whole,
 *       enums among their choices, inactive knobs (conditions) left out, and accepted by the
 *       known-constraint predicate it was given. It does not repeat a configuration already
 *       observed (unless built to allow repeats).
 *   <li>{@link #observe} accepts any configuration of the space, suggested or not (earlier phases,
 *       earlier sessions, another track), and any outcome, failures included.
 *   <li>The same seed and the same observations give the same suggestions.
 * </ul>
 */
public interface Optimizer {
  /** The next configuration to try. */
  Configuration suggest();

  /** Tells the optimizer what a configuration gave. */
  void observe(Configuration configuration, Outcome outcome);

  /** A short name for logs and reports, e.g. {@code bayes-gp}. */
  String name();

  /**
   * True when the optimizer has nothing left to suggest (a finished sweep); {@link #suggest()} then
   * throws. Open-ended optimizers never are.
   */
  default boolean isExhausted() {
    return false;
  }
}
