package org.pgknob.bench;

import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

/**
 * A benchmark function to minimize over a search space, with its known minimum. The benchmark adds
 * the observation noise, as a share of the function's range. {@link #value} returns NaN where the
 * function is infeasible (the trial "crashes").
 */
interface TestFunction {
  String name();

  SearchSpace space();

  double value(Configuration c);

  /** The minimum over the feasible region. */
  double minimum();

  /** The inputs the function depends on; all of the space's unless it hides a few among many. */
  default java.util.List<String> relevantInputs() {
    return space().names();
  }

  /**
   * The function whose range sets the observation noise: this one, or for a function restricted to
   * another's relevant inputs that other, so that both see the same noise.
   */
  default TestFunction noiseReference() {
    return this;
  }

  static double real(Configuration c, String knob) {
    return ((Number) c.get(knob)).doubleValue();
  }
}
