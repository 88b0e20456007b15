package org.pgknob.space;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL unit as pg_settings and the configuration files spell it: memory ({@code B, kB, MB,
 * GB, TB}, optionally with a multiplier as in {@code 8kB} pages or {@code 16MB} WAL segments), time
 * ({@code us, ms, s, min, h, d}) or none. Conversions are exact: each unit is a whole number of
 * bytes or microseconds.
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

  /** The unit for messages: {@code (none)} when empty. */
  public String display() {
    return text.isEmpty() ? "(none)" : text;
  }

  private void requireSameKind(PgUnit other) {
    if (kind != other.kind) {
      throw new IllegalArgumentException("cannot convert " + display() + " to " + other.display());
    }
  }
}
