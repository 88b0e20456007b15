package org.pgknob.server;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.space.PgUnit;

/**
 * Setting values as PostgreSQL reads them. As text alone ({@link #withUnit(String, String)}, {@link
 * #canonical(String)}, {@link #same}): a number with an optional memory unit (B, kB, MB, GB, TB;
 * 1024-based) or time unit (us, ms, s, min, h, d), or a word, to show pg_settings' raw values with
 * their unit and to tell whether two spellings mean the same value ('1GB' and '1024MB', 'on' and
 * 'true'). Against a setting's pg_settings row (package-private): checks a value against a
 * setting's pg_settings row the way PostgreSQL parses it, and brings it to a canonical form
 * (numbers in the base unit, booleans as on/off, enums as pg_settings lists them) so pgknob can
 * tell whether a value differs from the current one and verify it after a change.
 *
 * <p>Follows PostgreSQL's guc.c: integers and reals may carry a unit (memory: B, kB, MB, GB, TB;
 * time: us, ms, s, min, h, d; case-sensitive; read by {@link PgUnit.Quantity}), and integer values
 * are rounded to the base unit.
 */
public final class SettingValue {
  private static final List<String> TRUE_WORDS = List.of("true", "yes", "on", "1");
  private static final List<String> FALSE_WORDS = List.of("false", "no", "off", "0");

  /** A decimal-looking integer with a leading zero, optionally signed and with a unit. */
  private static final Pattern LEADING_ZERO = Pattern.compile("[+-]?(0[0-9]+)\\s*[A-Za-z]*");

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
      case "integer" -> {
        refuseLeadingZero(s, v);
        yield Long.toString(checkRange(s, value, Math.rint(toBaseUnits(s, value))));
      }
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
    PgUnit base = unitOf(unit);
    return base.kind() == PgUnit.Kind.TIME ? 1.0 / base.base() : 0;
  }

  /** The setting's unit; NONE when it has none (or one PostgreSQL does not list). */
  private static PgUnit unitOf(String unit) {
    return PgUnit.parse(unit).orElse(PgUnit.NONE);
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

  /**
   * Refuses an integer written with a leading zero. PostgreSQL reads it as octal (strtol with base
   * 0): work_mem=0200 is 128 kB, not 200, which is almost never what was meant, and pgknob would
   * echo "0200" while the server runs with 128. Refusing says so before anything changes.
   */
  private static void refuseLeadingZero(ServerSetting s, String v) {
    Matcher m = LEADING_ZERO.matcher(v);
    if (!m.matches()) {
      return;
    }
    String digits = m.group(1);
    String meaning =
        digits.chars().allMatch(c -> c <= '7')
            ? "reads " + digits + " as octal " + new java.math.BigInteger(digits, 8)
            : "refuses " + digits + " (an 8 or 9 in an octal number)";
    throw invalid(
        s,
        v,
        "must not start with 0: PostgreSQL "
            + meaning
            + "; write the number without the leading zero");
  }

  /** The value as a number of the setting's base unit (e.g. 8kB pages for shared_buffers). */
  private static double toBaseUnits(ServerSetting s, String value) {
    boolean integer = "integer".equals(s.vartype());
    String what = integer ? "an integer" : "a number";
    PgUnit base = unitOf(s.unit());
    Optional<PgUnit.Quantity> parsed =
        integer ? PgUnit.Quantity.parseInteger(value) : PgUnit.Quantity.parse(value);
    if (parsed.isEmpty()) {
      throw invalid(s, value, "must be " + what + unitHint(base));
    }
    PgUnit.Quantity quantity = parsed.get();
    if (quantity.hasUnit() && base.kind() == PgUnit.Kind.NONE) {
      throw invalid(s, value, "takes no unit: must be " + what);
    }
    return quantity
        .in(base)
        .orElseThrow(() -> invalid(s, value, "must be " + what + unitHint(base)))
        .doubleValue();
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
    PgUnit base = unitOf(s.unit());
    String plain = baseValue + " " + s.unit();
    if (base.kind() != PgUnit.Kind.MEMORY) {
      return plain;
    }
    try {
      double value = Double.parseDouble(baseValue);
      // 64 kB needs no translation; 16384 8kB and 4096 kB do.
      if (base.isMultiple() || Math.abs(value) >= 1024) {
        return plain + " (" + PgUnit.readableBytes(base.bytes(value)) + ")";
      }
      return plain;
    } catch (NumberFormatException e) {
      return plain;
    }
  }

  private static String unitHint(PgUnit base) {
    List<String> names = PgUnit.unitNames(base.kind());
    return names.isEmpty() ? "" : ", optionally with a unit (" + String.join(", ", names) + ")";
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

  // Text alone: no pg_settings row needed (exports, the report, the session).

  private static final PgUnit BYTES = PgUnit.parse("B").orElseThrow();
  private static final PgUnit MILLISECONDS = PgUnit.parse("ms").orElseThrow();

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
