package org.pgknob.optimize;

import java.util.List;

/**
 * Which knobs a sweep visits, in which order.
 *
 * @param priority knob names to sweep first, most promising first; knobs not listed follow in the
 *     space's order (unless {@code maxKnobs} cuts them off)
 * @param maxKnobs sweep at most this many knobs; 0 for all
 */
public record SweepPlan(List<String> priority, int maxKnobs) {
  public SweepPlan {
    priority = List.copyOf(priority);
    if (maxKnobs < 0) {
      throw new IllegalArgumentException("maxKnobs must be >= 0, but got " + maxKnobs);
    }
  }

  /** Every knob, in the space's order. */
  public static SweepPlan all() {
    return new SweepPlan(List.of(), 0);
  }
}
