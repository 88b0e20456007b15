package org.pgknob.report;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Setting values as text, the way PostgreSQL reads them: a number with an optional memory unit (B,
 * kB, MB, GB, TB; 1024-based) or time unit (us, ms, s, min, h, d), or a word. Used to show
 * pg_settings' raw values with their unit and to tell whether two spellings mean the same value
 * ('1GB' and '1024MB', 'on' and 'true').
 */
public final class SettingValue {
  private static final Pattern NUMBER_UNIT =
      Pattern.compile("\\s*([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*([a-zA-Z]*)\\s*");
  private static final Map<String, Long> MEMORY_BYTES =
      Map.of(
          "B", 1L,
          "kB", 1024L,
          "MB", 1024L * 1024,
          "GB", 1024L * 1024 * 1024,
          "TB", 1024L * 1024 * 1024 * 1024);
  private static final Map<String, Double> TIME_MS =
      Map.of(
          "us",
          0.001,
          "ms",
          1.0,
          "s",
          1000.0,
          "min",
          60_000.0,
          "h",
          3_600_000.0,
          "d",
          86_400_000.0);
  private static final String[] MEMORY_UNITS = {"TB", "GB", "MB", "kB", "B"};
  private static final String[] TIME_UNITS = {"d", "h", "min", "s", "ms"};

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
    Matcher u = Pattern.compile("(\\d*)([a-zA-Z]+)").matcher(unit);
    if (!u.matches()) {
      return raw + unit;
    }
    long multiple = u.group(1).isEmpty() ? 1 : Long.parseLong(u.group(1));
    String base = u.group(2);
    long value;
    try {
      value = Long.parseLong(raw.trim());
    } catch (NumberFormatException e) {
      return raw + unit;
    }
    if (value < 0) {
      return raw;
    }
    if (MEMORY_BYTES.containsKey(base)) {
      return largestExactUnit(value * multiple * MEMORY_BYTES.get(base), MEMORY_UNITS, true);
    }
    if (TIME_MS.containsKey(base) && !"us".equals(base)) {
      return largestExactUnit(Math.round(value * multiple * TIME_MS.get(base)), TIME_UNITS, false);
    }
    return value * multiple + base;
  }

  private static String largestExactUnit(long amount, String[] units, boolean memory) {
    if (amount == 0) {
      return "0";
    }
    for (String unit : units) {
      long per = memory ? MEMORY_BYTES.get(unit) : Math.round(TIME_MS.get(unit));
      if (amount % per == 0) {
        return amount / per + unit;
      }
    }
    return amount + units[units.length - 1];
  }

  /**
   * A form in which equal values are equal strings: memory in bytes, time in milliseconds, other
   * numbers in plain decimal, booleans as on/off, words in lower case. Values without a unit are
   * compared as numbers, so a memory setting should be compared with its unit written out.
   */
  public static String canonical(String text) {
    String t = text.trim();
    Matcher m = NUMBER_UNIT.matcher(t);
    if (m.matches()) {
      BigDecimal number = new BigDecimal(m.group(1));
      String unit = m.group(2);
      if (MEMORY_BYTES.containsKey(unit)) {
        return plain(number.multiply(BigDecimal.valueOf(MEMORY_BYTES.get(unit)))) + "B";
      }
      if (TIME_MS.containsKey(unit)) {
        return plain(number.multiply(BigDecimal.valueOf(TIME_MS.get(unit)))) + "ms";
      }
      if (unit.isEmpty()) {
        return plain(number);
      }
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
