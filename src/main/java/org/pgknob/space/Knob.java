package org.pgknob.space;

import java.util.List;
import java.util.Locale;

/**
 * One setting the optimizer may change, with the values it may take.
 *
 * <p>Numeric values are in the knob's {@link #unit()} (a PostgreSQL unit: kB, MB, GB, ms, s, min,
 * or none), so the value sent to the server is the number followed by the unit and PostgreSQL
 * itself converts it: no guessing of 8kB pages or base units. Integer values are {@link Long}, real
 * values {@link Double}, enum and bool values {@link String}.
 *
 * @param name the PostgreSQL setting name
 * @param type the kind of value
 * @param min lower bound (numeric knobs), in {@code unit}
 * @param max upper bound (numeric knobs), in {@code unit}
 * @param scale linear or log (numeric knobs)
 * @param unit PostgreSQL unit of {@code min}, {@code max} and values, or empty
 * @param choices allowed values (enum: as listed; bool: on, off)
 * @param grid values for one-at-a-time sweeps, or empty to derive them
 * @param condition when the knob is active, or null when always
 * @param defaultValue the baseline value (the server's boot value when bound to a server), or null
 *     when unknown; may lie outside [min, max] (wal_buffers = -1)
 * @param note a free-text remark for people
 * @param sweepRank the knob's place in a session's one-at-a-time sweeps (1 first), or 0 when a
 *     session does not sweep it: an expert prior the search-space file states ({@code sweep:})
 * @param automaticValue for a default outside [min, max] that asks the server to derive the value
 *     (wal_buffers = -1: 1/32 of shared_buffers), the value the server derived, in {@code unit}, or
 *     null: where the optimizer places the default, so that the baseline's runs are not taken for
 *     runs at the range's end
 */
public record Knob(
    String name,
    KnobType type,
    double min,
    double max,
    Scale scale,
    String unit,
    List<String> choices,
    List<Object> grid,
    Condition condition,
    Object defaultValue,
    String note,
    int sweepRank,
    Object automaticValue) {

  public Knob {
    unit = unit == null ? "" : unit;
    choices = choices == null ? List.of() : List.copyOf(choices);
    grid = grid == null ? List.of() : List.copyOf(grid);
    scale = scale == null ? Scale.LINEAR : scale;
    note = note == null ? "" : note;
  }

  /** A knob no session sweeps on its own (rank 0), whose default is used as it is. */
  public Knob(
      String name,
      KnobType type,
      double min,
      double max,
      Scale scale,
      String unit,
      List<String> choices,
      List<Object> grid,
      Condition condition,
      Object defaultValue,
      String note) {
    this(name, type, min, max, scale, unit, choices, grid, condition, defaultValue, note, 0, null);
  }

  public boolean isNumeric() {
    return type == KnobType.INTEGER || type == KnobType.REAL;
  }

  public boolean isCategorical() {
    return !isNumeric();
  }

  public Knob withDefault(Object value) {
    return copy(value, sweepRank, automaticValue);
  }

  public Knob withSweepRank(int rank) {
    return copy(defaultValue, rank, automaticValue);
  }

  /** This knob with the value the server derives for its out-of-range default. */
  public Knob withAutomaticValue(Object value) {
    return copy(defaultValue, sweepRank, value);
  }

  /** This knob with the facts a binding or a space file adds; its range and kind unchanged. */
  private Knob copy(Object newDefault, int newSweepRank, Object newAutomaticValue) {
    return new Knob(
        name,
        type,
        min,
        max,
        scale,
        unit,
        choices,
        grid,
        condition,
        newDefault,
        note,
        newSweepRank,
        newAutomaticValue);
  }

  /**
   * The value the server runs with when the knob holds {@code value}: the derived value for the
   * special default, else {@code value} itself.
   */
  public Object running(Object value) {
    return automaticValue != null && value != null && value.equals(defaultValue)
        ? automaticValue
        : value;
  }

  /**
   * Brings a value to this knob's type: integers rounded and clamped, reals clamped, categories
   * checked.
   *
   * @throws IllegalArgumentException when a category is not among the choices
   */
  public Object normalize(Object value) {
    switch (type) {
      case INTEGER -> {
        double v = ((Number) value).doubleValue();
        return Math.round(Math.max(min, Math.min(max, v)));
      }
      case REAL -> {
        double v = ((Number) value).doubleValue();
        return Math.max(min, Math.min(max, significant(v)));
      }
      default -> {
        String s = value.toString().toLowerCase(Locale.ROOT);
        if (type == KnobType.BOOL) {
          s =
              switch (s) {
                case "true", "yes", "1" -> "on";
                case "false", "no", "0" -> "off";
                default -> s;
              };
        }
        if (!choices.contains(s)) {
          throw new IllegalArgumentException(
              name + " must be one of " + choices + ", but got " + value);
        }
        return s;
      }
    }
  }

  /** 10^0 to 10^22, each exactly representable as a double. */
  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  /**
   * {@code v} to six significant digits: finer steps change nothing measurable, and the value a
   * configuration holds is then the one written to postgresql.conf (0.0123, not
   * 0.012299999999999995), so an encode/decode round trip gives the same configuration.
   */
  private static double significant(double v) {
    if (v == 0 || !Double.isFinite(v)) {
      return v;
    }
    // scaling by an exact power of ten and rounding to an integer gives what decimal rounding
    // gives (KnobTest compares them) without BigDecimal, whose allocations made decoding the
    // optimizer's candidates slower than predicting them
    int exponent = 5 - (int) Math.floor(Math.log10(Math.abs(v)));
    if (exponent >= 0 && exponent <= 22) {
      double scale = POWERS_OF_TEN[exponent];
      return Math.rint(v * scale) / scale;
    }
    if (exponent < 0 && exponent >= -22) {
      double scale = POWERS_OF_TEN[-exponent];
      return Math.rint(v / scale) * scale;
    }
    return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).doubleValue();
  }

  /** True when the value is of this knob's type and within its range or choices. */
  public boolean admits(Object value) {
    if (value == null) {
      return false;
    }
    return switch (type) {
      case INTEGER -> value instanceof Long l && l >= min && l <= max;
      case REAL -> value instanceof Double d && !d.isNaN() && d >= min && d <= max;
      default -> value instanceof String s && choices.contains(s);
    };
  }

  /** The value as PostgreSQL takes it in ALTER SYSTEM or postgresql.conf, e.g. {@code 256MB}. */
  public String render(Object value) {
    return switch (type) {
      case INTEGER -> {
        long v = ((Number) value).longValue();
        yield v + renderedUnit(v);
      }
      case REAL -> {
        double d = ((Number) value).doubleValue();
        String s =
            d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
        yield s + renderedUnit(d);
      }
      default -> value.toString();
    };
  }

  /**
   * The suffix of a rendered value. None for negative values, which PostgreSQL reads as special (-1
   * = derived from another setting) only without a unit, and none for a unit with a multiplier
   * ({@code 8kB}): a bare number is in the server's own unit, which the binding checked equals it.
   */
  private String renderedUnit(double value) {
    if (value < 0 || unit.isEmpty() || Character.isDigit(unit.charAt(0))) {
      return "";
    }
    return unit;
  }
}
