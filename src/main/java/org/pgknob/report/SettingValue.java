package org.pgknob.report;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import org.pgknob.space.PgUnit;

/**
 * Setting values as text, the way PostgreSQL reads them: a number with an optional memory unit (B,
 * kB, MB, GB, TB; 1024-based) or time unit (us, ms, s, min, h, d), or a word. Used to show
 * pg_settings' raw values with their unit and to tell whether two spellings mean the same value
 * ('1GB' and '1024MB', 'on' and 'true'). The units themselves are {@link PgUnit}'s.
 */
public final class SettingValue {
  private static final PgUnit BYTES = PgUnit.parse("B").orElseThrow();
  private static final PgUnit MILLISECONDS = PgUnit.parse("ms").orElseThrow();

  private SettingValue() {}

  /**
   * A pg_settings value in its unit as PostgreSQL takes it: {@code ("16384", "8kB")} is 128MB,
   * {@code ("300", "s")} is 5min. Negative values are special (-1: "use the default rule") and keep
   * no unit, as do values of settings without one.
   */
  public static String withUnit(String raw, String unit) {
    if (raw == null || unit == null || unit.isEmpty()) {
      return raw;
    }
    Optional<PgUnit> u = PgUnit.parse(unit);
    long value;
    try {
      value = Long.parseLong(raw.trim());
    } catch (NumberFormatException e) {
      return raw + unit;
    }
    if (u.isEmpty()) {
      return raw + unit;
    }
    if (value < 0) {
      return raw;
    }
    return u.get().writeWhole(value);
  }

  /**
   * A form in which equal values are equal strings: memory in bytes, time in milliseconds, other
   * numbers in plain decimal, booleans as on/off, words in lower case. Values without a unit are
   * compared as numbers, so a memory setting should be compared with its unit written out.
   */
  public static String canonical(String text) {
    String t = text.trim();
    Optional<PgUnit.Quantity> quantity = PgUnit.Quantity.parse(t);
    Optional<PgUnit> unit = quantity.flatMap(PgUnit.Quantity::unit);
    if (unit.isPresent()) {
      PgUnit.Quantity q = quantity.get();
      return switch (unit.get().kind()) {
        case MEMORY -> plain(q.in(BYTES).orElseThrow()) + "B";
        case TIME -> plain(q.in(MILLISECONDS).orElseThrow()) + "ms";
        case NONE -> plain(q.number());
      };
    }
    String lower = t.toLowerCase(Locale.ROOT);
    return switch (lower) {
      case "on", "true", "yes" -> "on";
      case "off", "false", "no" -> "off";
      default -> lower;
    };
  }

  /** True when the two texts mean the same setting value. */
  public static boolean same(String a, String b) {
    return canonical(a).equals(canonical(b));
  }

  private static String plain(BigDecimal d) {
    BigDecimal s = d.stripTrailingZeros();
    return s.scale() < 0 ? s.setScale(0).toPlainString() : s.toPlainString();
  }
}
