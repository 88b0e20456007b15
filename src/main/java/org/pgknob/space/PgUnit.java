package org.pgknob.space;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL unit as pg_settings and the configuration files spell it: memory ({@code B, kB, MB,
 * GB, TB}, optionally with a multiplier as in {@code 8kB} pages or {@code 16MB} WAL segments), time
 * ({@code us, ms, s, min, h, d}) or none. Conversions are exact: each unit is a whole number of
 * bytes or microseconds. The one place pgknob knows these units: values as written ({@link
 * Quantity}: {@code 128MB}, {@code 1.5min}) are read here, and whole values written back ({@link
 * #writeWhole}).
 *
 * @param text the unit as written, e.g. {@code 8kB}; empty for none
 * @param kind memory, time or none
 * @param base bytes (memory) or microseconds (time) in one unit; 1 for none
 */
public record PgUnit(String text, Kind kind, long base) {
  /** What a unit measures; only units of the same kind convert. */
  public enum Kind {
    NONE,
    MEMORY,
    TIME
  }

  private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]+)?");

  public static final PgUnit NONE = new PgUnit("", Kind.NONE, 1);

  private static final Map<String, Long> MEMORY =
      Map.of("B", 1L, "kB", 1024L, "MB", 1L << 20, "GB", 1L << 30, "TB", 1L << 40);
  private static final Map<String, Long> TIME =
      Map.of(
          "us", 1L,
          "ms", 1_000L,
          "s", 1_000_000L,
          "min", 60_000_000L,
          "h", 3_600_000_000L,
          "d", 86_400_000_000L);
  private static final List<String> MEMORY_NAMES = List.of("B", "kB", "MB", "GB", "TB");
  private static final List<String> TIME_NAMES = List.of("us", "ms", "s", "min", "h", "d");
  private static final Pattern FORM = Pattern.compile("(\\d*)\\s*([A-Za-z]+)");

  /** The unit for {@code text} (null or empty: none), or empty when PostgreSQL has no such unit. */
  public static Optional<PgUnit> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.of(NONE);
    }
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      return Optional.empty();
    }
    long multiplier = m.group(1).isEmpty() ? 1 : Long.parseLong(m.group(1));
    if (multiplier <= 0) {
      return Optional.empty();
    }
    Long base = MEMORY.get(m.group(2));
    Kind kind = Kind.MEMORY;
    if (base == null) {
      base = TIME.get(m.group(2));
      kind = Kind.TIME;
    }
    if (base == null) {
      return Optional.empty();
    }
    return Optional.of(new PgUnit(text.trim(), kind, Math.multiplyExact(multiplier, base)));
  }

  /** The units a value of {@code kind} may be written in, smallest first; none for NONE. */
  public static List<String> unitNames(Kind kind) {
    return switch (kind) {
      case MEMORY -> MEMORY_NAMES;
      case TIME -> TIME_NAMES;
      case NONE -> List.of();
    };
  }

  /** True for a unit with a multiplier ({@code 8kB}): values in it are written without a suffix. */
  public boolean isMultiple() {
    return !text.isEmpty() && Character.isDigit(text.charAt(0));
  }

  public boolean convertsTo(PgUnit other) {
    return kind == other.kind;
  }

  /** True when every whole number of this unit is a whole number of {@code other}. */
  public boolean isWholeMultipleOf(PgUnit other) {
    return convertsTo(other) && base % other.base == 0;
  }

  /** {@code value} of this unit in {@code other} (same kind), exactly as a double can hold it. */
  public double convert(double value, PgUnit other) {
    requireSameKind(other);
    return BigDecimal.valueOf(value)
        .multiply(BigDecimal.valueOf(base))
        .divide(BigDecimal.valueOf(other.base), java.math.MathContext.DECIMAL64)
        .doubleValue();
  }

  /**
   * {@code value} of this unit as a whole number of {@code other}, or empty when it is not whole.
   */
  public Optional<Long> convertExactly(long value, PgUnit other) {
    requireSameKind(other);
    BigInteger[] qr =
        BigInteger.valueOf(value)
            .multiply(BigInteger.valueOf(base))
            .divideAndRemainder(BigInteger.valueOf(other.base));
    if (qr[1].signum() != 0 || qr[0].bitLength() > 63) {
      return Optional.empty();
    }
    return Optional.of(qr[0].longValue());
  }

  /** Bytes in {@code value} of this memory unit. */
  public double bytes(double value) {
    if (kind != Kind.MEMORY) {
      throw new IllegalStateException(display() + " is not a memory unit");
    }
    return value * base;
  }

  /**
   * {@code value} of this memory or time unit in the largest unit that keeps it whole, as
   * PostgreSQL takes it: 16384 of {@code 8kB} is {@code 128MB}, 300 of {@code s} is {@code 5min}, 0
   * is {@code 0}; a value of no unit as it is.
   */
  public String writeWhole(long value) {
    if (kind == Kind.NONE) {
      return Long.toString(value);
    }
    long amount = Math.multiplyExact(value, base);
    if (amount == 0) {
      return "0";
    }
    List<String> names = unitNames(kind);
    Map<String, Long> sizes = kind == Kind.MEMORY ? MEMORY : TIME;
    for (int i = names.size() - 1; i > 0; i--) {
      long size = sizes.get(names.get(i));
      if (amount % size == 0) {
        return amount / size + names.get(i);
      }
    }
    return amount + names.get(0);
  }

  /**
   * A byte count for people, in PostgreSQL's memory units (powers of 1024) and its spelling: {@code
   * 512MB}, {@code 1.5GB}, {@code 7864kB}; one decimal when not whole. The one formatter of sizes
   * in pgknob's messages.
   */
  public static String readableBytes(double bytes) {
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

  /**
   * A memory size as a user writes it on the command line, in bytes: a number, optionally with a
   * decimal part, and one of PostgreSQL's memory units (B, kB, MB, GB, TB; powers of 1024; the case
   * of the unit is forgiven here, as people write 8gb); no unit means bytes. Empty when the text is
   * not a size.
   */
  public static OptionalLong parseBytes(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    double number = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "B" : m.group(2);
    for (String name : unitNames(Kind.MEMORY)) {
      if (name.equalsIgnoreCase(unit)) {
        return OptionalLong.of((long) (number * MEMORY.get(name)));
      }
    }
    return OptionalLong.empty();
  }

  /** The unit for messages: {@code (none)} when empty. */
  public String display() {
    return text.isEmpty() ? "(none)" : text;
  }

  private void requireSameKind(PgUnit other) {
    if (kind != other.kind) {
      throw new IllegalArgumentException("cannot convert " + display() + " to " + other.display());
    }
  }

  /**
   * A number with an optional unit, as a setting's value is written: {@code 128MB}, {@code 1.5min},
   * {@code 0x10}, {@code 200}. Spaces may surround the number and the unit; units are
   * case-sensitive, as PostgreSQL's are.
   *
   * @param number the number as written (hex and octal already read)
   * @param unitText the unit as written, empty for none; it may be one PostgreSQL does not know
   */
  public record Quantity(BigDecimal number, String unitText) {
    private static final Pattern NUMBER_AND_UNIT =
        Pattern.compile(
            "\\s*([+-]?(?:0[xX][0-9a-fA-F]+|(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?))"
                + "\\s*([A-Za-z]*)\\s*");

    /**
     * {@code text} as PostgreSQL reads a real setting (strtod): a decimal number with an optional
     * exponent, or {@code 0x} hex; empty when it is no number.
     */
    public static Optional<Quantity> parse(String text) {
      return parse(text, false);
    }

    /**
     * {@code text} as PostgreSQL reads an integer setting (strtol with base 0, then strtod for a
     * fraction or exponent): like {@link #parse}, but digits after a leading zero are octal ({@code
     * 010} is 8), and one with an 8 or 9 there is no number.
     */
    public static Optional<Quantity> parseInteger(String text) {
      return parse(text, true);
    }

    private static Optional<Quantity> parse(String text, boolean integer) {
      Matcher m = NUMBER_AND_UNIT.matcher(text);
      if (!m.matches()) {
        return Optional.empty();
      }
      String signed = m.group(1);
      boolean negative = signed.startsWith("-");
      String digits = signed.startsWith("+") || negative ? signed.substring(1) : signed;
      BigDecimal magnitude;
      if (digits.startsWith("0x") || digits.startsWith("0X")) {
        magnitude = new BigDecimal(new BigInteger(digits.substring(2), 16));
      } else if (integer
          && digits.length() > 1
          && digits.startsWith("0")
          && digits.chars().allMatch(Character::isDigit)) {
        if (!digits.chars().allMatch(c -> c <= '7')) {
          return Optional.empty(); // strtol stops at the 8 or 9: PostgreSQL refuses the rest
        }
        magnitude = new BigDecimal(new BigInteger(digits, 8));
      } else {
        try {
          magnitude = new BigDecimal(digits);
        } catch (NumberFormatException e) {
          return Optional.empty(); // an exponent beyond any double: strtod's ERANGE, refused
        }
      }
      return Optional.of(new Quantity(negative ? magnitude.negate() : magnitude, m.group(2)));
    }

    public boolean hasUnit() {
      return !unitText.isEmpty();
    }

    /** The unit written: NONE when none was, empty when PostgreSQL has no such unit. */
    public Optional<PgUnit> unit() {
      return PgUnit.parse(unitText);
    }

    /**
     * The number in {@code target}: as written when no unit was (a plain number is already in the
     * setting's unit), else converted, exactly when the result has a finite decimal form; empty
     * when the written unit is unknown or of another kind.
     */
    public Optional<BigDecimal> in(PgUnit target) {
      if (!hasUnit()) {
        return Optional.of(number);
      }
      return unit()
          .filter(u -> u.convertsTo(target))
          .map(u -> divide(number.multiply(BigDecimal.valueOf(u.base)), target.base));
    }

    private static BigDecimal divide(BigDecimal dividend, long divisor) {
      BigDecimal d = BigDecimal.valueOf(divisor);
      try {
        return dividend.divide(d);
      } catch (ArithmeticException endless) { // 1s in min: 0.0166..., as close as a double needs
        return dividend.divide(d, MathContext.DECIMAL64);
      }
    }
  }
}
