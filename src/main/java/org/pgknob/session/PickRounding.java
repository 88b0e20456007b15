package org.pgknob.session;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.function.Predicate;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.PgUnit;
import org.pgknob.space.SearchSpace;

/**
 * A pick's values as a DBA writes them ({@link ExportRounding}: {@code random_page_cost} 1.63335 as
 * 1.6, {@code effective_cache_size} 15913MB as 16GB, {@code checkpoint_completion_target} 0.8971 as
 * the default 0.9), before validation measures the pick. The exported file is then the
 * configuration validation measured, value for value: before, validation measured the optimizer's
 * values and the export rounded them, each within 5% but none of them measured.
 *
 * <p>A value keeps the optimizer's figure when its rounded form falls outside the knob's range, and
 * the whole pick keeps them when the rounded configuration is not one the safety rules accept.
 */
final class PickRounding {
  private PickRounding() {}

  /**
   * @param rounding rounds one rendered value; its memory headroom is the pick's own
   * @param admissible whether the safety rules accept a configuration
   */
  static Configuration round(
      Configuration pick,
      SearchSpace space,
      ExportRounding rounding,
      Predicate<Configuration> admissible) {
    Configuration out = pick;
    for (var e : pick.values().entrySet()) {
      Knob knob = space.knob(e.getKey());
      if (!knob.isNumeric()) {
        continue;
      }
      String rendered = knob.render(e.getValue());
      String written = rounding.round(knob.name(), rendered);
      if (!written.equals(rendered)) {
        Optional<Object> value = inKnobUnit(knob, written);
        if (value.isPresent()) {
          out = out.with(knob.name(), value.get());
        }
      }
    }
    return out.equals(pick) || admissible.test(out) ? out : pick;
  }

  /** {@code written} (16GB, 1.6, 150ms) in the knob's unit and type, if it is within its range. */
  private static Optional<Object> inKnobUnit(Knob knob, String written) {
    Optional<PgUnit> unit = PgUnit.parse(knob.unit());
    Optional<BigDecimal> number =
        unit.flatMap(u -> PgUnit.Quantity.parse(written).flatMap(q -> q.in(u)));
    if (number.isEmpty()) {
      return Optional.empty();
    }
    Object value;
    if (knob.type() == KnobType.INTEGER) {
      BigDecimal n = number.get().stripTrailingZeros();
      if (n.scale() > 0) {
        return Optional.empty(); // 1.5GB of an MB knob is whole; a fraction of its unit is not
      }
      value = n.longValueExact();
    } else {
      value = number.get().doubleValue();
    }
    return knob.admits(value) ? Optional.of(value) : Optional.empty();
  }
}
