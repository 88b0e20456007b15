package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.List;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/**
 * Gives every knob without a default one: the midpoint of its range on its scale (the geometric
 * mean for log knobs), or its first choice. For spaces with no server behind them ({@code pgknob
 * optimize}), where the baseline must still be a complete configuration.
 */
public final class MidpointDefaults {
  private MidpointDefaults() {}

  public static SearchSpace apply(SearchSpace space) {
    List<Knob> knobs = new ArrayList<>();
    for (Knob k : space.knobs()) {
      if (k.defaultValue() != null) {
        knobs.add(k.withDefault(k.normalize(k.defaultValue())));
      } else if (k.isNumeric()) {
        knobs.add(k.withDefault(k.normalize(UnitCubeEncoder.fromUnit(k, 0.5))));
      } else {
        knobs.add(k.withDefault(k.choices().get(0)));
      }
    }
    return new SearchSpace(space.source(), knobs);
  }
}
