package org.pgknob.bench;

import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

/**
 * A benchmark function to minimize over a search space, with its known minimum and the noise added
 * to each observation. {@link #value} returns NaN where the function is infeasible (the trial
 * "crashes").
 */
interface TestFunction {
  String name();

  SearchSpace space();

  double value(Configuration c);

  /** The minimum over the feasible region. */
  double minimum();

  /** Standard deviation of the Gaussian noise added to observations. */
  double noiseSd();

  static double real(Configuration c, String knob) {
    return ((Number) c.get(knob)).doubleValue();
  }
}
