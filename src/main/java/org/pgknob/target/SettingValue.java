package org.pgknob.target;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a value against a setting's pg_settings row the way PostgreSQL parses it, and brings it to
 * a canonical form (numbers in the base unit, booleans as on/off, enums as pg_settings lists them)
 * so pgknob can tell whether a value differs from the current one and verify it after a change.
 *
 * <p>Follows PostgreSQL's guc.c: integers and reals may carry a unit (memory: B, kB, MB, GB, TB;
 * time: us, ms, s, min, h, d; case-sensitive), and integer values are rounded to the base unit.
 */
final class SettingValue {
  private static final Map<String, Double> MEMORY_BYTES =
      Map.of(
          "B",
          1.0,
          "kB",
          1024.0,
          "MB",
          1024.0 * 1024,
          "GB",
          1024.0 * 1024 * 1024,
          "TB",
          1024.0 * 1024 * 1024 * 1024);
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
  private static final Pattern NUMBER_AND_UNIT =
      Pattern.compile(
          "\\s*([+-]?(?:0[xX][0-9a-fA-F]+|(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?))\\s*([A-Za-z]*)\\s*");
  private static final List<String> TRUE_WORDS = List.of("true", "yes", "on", "1");
  private static final List<String> FALSE_WORDS = List.of("false", "no", "off", "0");

  private SettingValue() {}

  /**
   * The canonical form of {@code value} for {@code s}.
   *
   * @throws SettingRejectedException (reason INVALID) naming the setting, what must hold and what
   *     was given, when PostgreSQL would refuse the value
   */
  static String canonical(ServerSetting s, String value) {
    String v = value.strip();
    return switch (s.vartype()) {
      case "bool" -> canonicalBool(s, v);
      case "integer" -> Long.toString(checkRange(s, value, Math.rint(toBaseUnits(s, value))));
      case "real" -> {
        double d = toBaseUnits(s, value);
        checkRange(s, value, d);
        yield BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
      }
      case "enum" ->
          s.enumvals().stream()
              .filter(e -> e.equalsIgnoreCase(v))
              .findFirst()
              .orElseThrow(
                  () -> invalid(s, value, "must be one of " + String.join(", ", s.enumvals())));
      default -> value;
    };
  }

  /** True when the server's current {@code setting} text equals a canonical value. */
  static boolean sameValue(ServerSetting s, String canonical, String setting) {
    if (setting == null || canonical == null) {
      return setting == null && canonical == null;
    }
    try {
      return switch (s.vartype()) {
        case "integer" -> Long.parseLong(setting.strip()) == Long.parseLong(canonical);
        case "real" -> {
          // pg_settings prints reals with %g (six significant digits), and PostgreSQL rounds a
          // real with a time unit to whole microseconds (guc.c, convert_to_base_unit).
          double a = Double.parseDouble(setting.strip());
          double b = Double.parseDouble(canonical);
          double microsecond = microsecondInBaseUnit(s.unit());
          yield a == b
              || Math.abs(a - b) <= 1e-5 * Math.max(Math.abs(a), Math.abs(b))
              || Math.abs(a - b) <= microsecond / 2 + 1e-12;
        }
        case "bool", "enum" -> setting.strip().equalsIgnoreCase(canonical);
        default -> setting.equals(canonical);
      };
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** One microsecond in a time setting's base unit (0 for settings that are not times). */
  private static double microsecondInBaseUnit(String unit) {
    Double ms = unit == null ? null : TIME_MS.get(unit);
    return ms == null ? 0 : 0.001 / ms;
  }

  private static String canonicalBool(ServerSetting s, String v) {
    String lower = v.toLowerCase(Locale.ROOT);
    // PostgreSQL accepts any unambiguous prefix (t, ye, of, ...); "o" alone could be on or off.
    if (!lower.isEmpty() && !lower.equals("o")) {
      for (String word : TRUE_WORDS) {
        if (word.startsWith(lower) && (lower.length() > 1 || !word.equals("on"))) {
          return "on";
        }
      }
      for (String word : FALSE_WORDS) {
        if (word.startsWith(lower) && (lower.length() > 1 || !word.equals("off"))) {
          return "off";
        }
      }
    }
    throw invalid(s, v, "must be a boolean (on, off, true, false, yes, no, 1, 0)");
  }

  /** The value as a number of the setting's base unit (e.g. 8kB pages for shared_buffers). */
  private static double toBaseUnits(ServerSetting s, String value) {
    Matcher m = NUMBER_AND_UNIT.matcher(value);
    String what = "integer".equals(s.vartype()) ? "an integer" : "a number";
    if (!m.matches()) {
      throw invalid(s, value, "must be " + what + unitHint(s));
    }
    double number = parseNumber(m.group(1));
    String unit = m.group(2);
    if (unit.isEmpty()) {
      return number;
    }
    BaseUnit base = BaseUnit.of(s.unit());
    if (base == null) {
      throw invalid(s, value, "takes no unit: must be " + what);
    }
    Double factor = base.memory ? MEMORY_BYTES.get(unit) : TIME_MS.get(unit);
    if (factor == null) {
      throw invalid(s, value, "must be " + what + unitHint(s));
    }
    return number * factor / base.size;
  }

  /** Like strtol with base 0 for integers (0x hex, leading-zero octal) and strtod otherwise. */
  private static double parseNumber(String text) {
    String t = text.startsWith("+") ? text.substring(1) : text;
    boolean negative = t.startsWith("-");
    String digits = negative ? t.substring(1) : t;
    double magnitude;
    if (digits.startsWith("0x") || digits.startsWith("0X")) {
      magnitude = Long.parseLong(digits.substring(2), 16);
    } else if (digits.length() > 1
        && digits.startsWith("0")
        && digits.chars().allMatch(Character::isDigit)) {
      magnitude = Long.parseLong(digits, 8);
    } else {
      magnitude = Double.parseDouble(digits);
    }
    return negative ? -magnitude : magnitude;
  }

  /** Returns {@code base} as a long when it lies within the setting's min_val..max_val. */
  private static long checkRange(ServerSetting s, String value, double base) {
    if (Double.isNaN(base) || Double.isInfinite(base)) {
      throw invalid(s, value, "must be a finite number");
    }
    double min = s.minVal() == null ? Double.NEGATIVE_INFINITY : Double.parseDouble(s.minVal());
    double max = s.maxVal() == null ? Double.POSITIVE_INFINITY : Double.parseDouble(s.maxVal());
    if (base < min || base > max) {
      throw invalid(
          s,
          value,
          "must be between " + withUnit(s, s.minVal()) + " and " + withUnit(s, s.maxVal()),
          withUnit(s, BigDecimal.valueOf(base).stripTrailingZeros().toPlainString()));
    }
    return (long) base;
  }

  /** A base value with its unit, plus the readable size for memory settings: 16 8kB (128kB). */
  static String withUnit(ServerSetting s, String baseValue) {
    if (s.unit() == null) {
      return baseValue;
    }
    BaseUnit base = BaseUnit.of(s.unit());
    String plain = baseValue + " " + s.unit();
    if (base == null || !base.memory) {
      return plain;
    }
    try {
      double value = Double.parseDouble(baseValue);
      // 64 kB needs no translation; 16384 8kB and 4096 kB do.
      if (Character.isDigit(s.unit().charAt(0)) || Math.abs(value) >= 1024) {
        return plain + " (" + readableBytes(value * base.size) + ")";
      }
      return plain;
    } catch (NumberFormatException e) {
      return plain;
    }
  }

  private static String readableBytes(double bytes) {
    String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
    int i = 0;
    double v = bytes;
    while (Math.abs(v) >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return (v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v))
        + units[i];
  }

  private static String unitHint(ServerSetting s) {
    BaseUnit base = BaseUnit.of(s.unit());
    if (base == null) {
      return "";
    }
    return base.memory
        ? ", optionally with a unit (B, kB, MB, GB, TB)"
        : ", optionally with a unit (us, ms, s, min, h, d)";
  }

  private static SettingRejectedException invalid(ServerSetting s, String value, String rule) {
    return invalid(s, value, rule, null);
  }

  private static SettingRejectedException invalid(
      ServerSetting s, String value, String rule, String meaning) {
    return new SettingRejectedException(
        SettingRejectedException.Reason.INVALID,
        Map.of(s.name(), value),
        s.name()
            + " "
            + rule
            + ", but got '"
            + value.strip()
            + "'"
            + (meaning == null ? "" : " = " + meaning),
        "",
        "nothing was changed");
  }

  /** A pg_settings unit such as 8kB or ms: memory or time, and its size in bytes or ms. */
  private record BaseUnit(boolean memory, double size) {
    static BaseUnit of(String unit) {
      if (unit == null || unit.isEmpty()) {
        return null;
      }
      Matcher m = Pattern.compile("(\\d*)\\s*([A-Za-z]+)").matcher(unit);
      if (!m.matches()) {
        return null;
      }
      double multiple = m.group(1).isEmpty() ? 1 : Double.parseDouble(m.group(1));
      Double bytes = MEMORY_BYTES.get(m.group(2));
      if (bytes != null) {
        return new BaseUnit(true, multiple * bytes);
      }
      Double ms = TIME_MS.get(m.group(2));
      return ms == null ? null : new BaseUnit(false, multiple * ms);
    }
  }
}
