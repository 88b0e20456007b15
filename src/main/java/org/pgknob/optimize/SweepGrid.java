package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.pgknob.space.Knob;
import org.pgknob.space.UnitCubeEncoder;

/** The values a one-at-a-time sweep tries for one knob. */
public final class SweepGrid {
  /** Values spread evenly on the knob's scale when the space gives no grid. */
  static final int SPREAD_POINTS = 6;

  private SweepGrid() {}

  /**
   * The knob's grid from the space, else {@value #SPREAD_POINTS} values spread evenly on its scale
   * (linear or log) from min to max; in both cases the default too when it lies in range. Numeric
   * values in ascending order; categories in their listed order.
   */
  public static List<Object> values(Knob knob) {
    Set<Object> values = new LinkedHashSet<>();
    if (knob.isCategorical()) {
      values.addAll(knob.grid().isEmpty() ? knob.choices() : knob.grid());
      if (knob.defaultValue() != null && knob.admits(knob.defaultValue())) {
        values.add(knob.defaultValue());
      }
      List<Object> ordered = new ArrayList<>(values);
      ordered.sort(Comparator.comparingInt(v -> knob.choices().indexOf(v.toString())));
      return ordered;
    }
    if (knob.grid().isEmpty()) {
      for (int i = 0; i < SPREAD_POINTS; i++) {
        double u = i / (double) (SPREAD_POINTS - 1);
        values.add(knob.normalize(UnitCubeEncoder.fromUnit(knob, u)));
      }
    } else {
      for (Object g : knob.grid()) {
        values.add(knob.normalize(g));
      }
    }
    if (knob.defaultValue() instanceof Number && knob.admits(knob.defaultValue())) {
      values.add(knob.defaultValue());
    }
    List<Object> ordered = new ArrayList<>(values);
    ordered.sort(Comparator.comparingDouble(v -> ((Number) v).doubleValue()));
    return ordered;
  }
}
