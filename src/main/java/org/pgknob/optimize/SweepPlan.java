package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.space.Knob;

/**
 * Which knobs a sweep visits, in which order, and on which values.
 *
 * @param priority knob names to sweep first, most promising first; knobs not listed follow in the
 *     space's order (unless {@code maxKnobs} cuts them off)
 * @param maxKnobs sweep at most this many knobs; 0 for all
 * @param grids values that replace a knob's {@link SweepGrid} (a tuning session's grid, thinned to
 *     fit its budget and fixed in its plan); a knob without one is swept on its {@code SweepGrid}
 */
public record SweepPlan(List<String> priority, int maxKnobs, Map<String, List<Object>> grids) {
  public SweepPlan {
    priority = List.copyOf(priority);
    if (maxKnobs < 0) {
      throw new IllegalArgumentException("maxKnobs must be >= 0, but got " + maxKnobs);
    }
    Map<String, List<Object>> copy = new LinkedHashMap<>();
    grids.forEach((knob, values) -> copy.put(knob, List.copyOf(values)));
    grids = Collections.unmodifiableMap(copy);
  }

  /** A plan on the knobs' own grids. */
  public SweepPlan(List<String> priority, int maxKnobs) {
    this(priority, maxKnobs, Map.of());
  }

  /** Every knob, in the space's order. */
  public static SweepPlan all() {
    return new SweepPlan(List.of(), 0);
  }

  /**
   * Exactly these knobs, in this order, each on exactly these values (in the knob's unit; the
   * default, if listed, is the baseline and not swept again).
   */
  public static SweepPlan of(Map<String, List<Object>> grids) {
    if (grids.isEmpty()) {
      throw new IllegalArgumentException("a sweep of no knob: give at least one knob's values");
    }
    return new SweepPlan(new ArrayList<>(grids.keySet()), grids.size(), grids);
  }

  /** The values this plan sweeps {@code knob} on, normalized to the knob's type. */
  List<Object> values(Knob knob) {
    List<Object> given = grids.get(knob.name());
    if (given == null) {
      return SweepGrid.values(knob);
    }
    return given.stream().map(knob::normalize).toList();
  }
}
