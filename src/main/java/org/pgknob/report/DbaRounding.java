package org.pgknob.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.space.PgUnit;

/**
 * Values written the way a DBA writes them. Memory: {@code 6GB}, {@code 18GB}, {@code 72MB} instead
 * of {@code 6170887kB}; a value becomes a whole number of the largest unit (GB, then MB) that is
 * within {@link #TOLERANCE} of it, otherwise it keeps its exact value in kB. Other numbers ({@link
 * #number}): two significant digits, {@code 1.6} for {@code 1.63335}, {@code 330s} for {@code
 * 331s}.
 *
 * <p>Rounding up is bounded by a ceiling the caller knows (a formula's cap, or the memory the
 * safety limit leaves): a value that would cross it is rounded down in the same unit instead, so a
 * rounded export never asks for more memory than the measured or computed one was allowed.
 */
public final class DbaRounding {
  /** How far a rounded value may be from the exact one: 5%, well inside a trial's noise. */
  public static final double TOLERANCE = 0.05;

  private static final long KB_PER_MB = 1024;
  private static final long KB_PER_GB = 1024 * 1024;
  private static final PgUnit KB = PgUnit.parse("kB").orElseThrow();

  private DbaRounding() {}

  /**
   * {@code kb} as a round value no larger than {@code ceilingKb} (pass {@code kb} to round only
   * down, {@link Long#MAX_VALUE} for no ceiling).
   */
  public static String memoryKb(long kb, long ceilingKb) {
    if (kb <= 0) {
      return kb + "kB";
    }
    for (long unit : new long[] {KB_PER_GB, KB_PER_MB}) {
      long nearest = Math.round((double) kb / unit);
      if (nearest >= 1 && close(nearest * unit, kb) && nearest * unit <= Math.max(ceilingKb, kb)) {
        return nearest + suffix(unit);
      }
      long down = kb / unit;
      if (down >= 1 && close(down * unit, kb)) {
        return down + suffix(unit);
      }
    }
    return kb + "kB";
  }

  /**
   * {@code value} rounded when it is a memory quantity ({@code 7620MB}, {@code 6170887kB}); any
   * other value (a number, a word, a time) is returned unchanged.
   *
   * @param ceilingKb the largest value rounding may reach, in kB
   */
  public static String round(String value, long ceilingKb) {
    Optional<Long> kb = kilobytes(value);
    return kb.isPresent() ? memoryKb(kb.get(), ceilingKb) : value;
  }

  /** A plain decimal (no leading zero, no exponent) and an optional unit: 1.63335, 331s, 146ms. */
  private static final Pattern PLAIN_NUMBER =
      Pattern.compile("(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?)([A-Za-z]*)");

  /**
   * {@code value} to two significant digits when it is a number without a unit or with a time unit
   * and has more: {@code 1.6} for {@code 1.63335}, {@code 0.9} for {@code 0.8971}, {@code 330s} for
   * {@code 331s}, {@code 150ms} for {@code 146ms}. Two digits are always within {@link #TOLERANCE}
   * (at worst 10.5 as 11), and an integer of three digits or more stays an integer. Memory
   * quantities, words and anything else are returned unchanged.
   */
  public static String number(String value) {
    Matcher m = PLAIN_NUMBER.matcher(value.trim());
    if (!m.matches()) {
      return value;
    }
    String unit = m.group(2);
    if (!unit.isEmpty() && PgUnit.parse(unit).map(u -> u.kind() != PgUnit.Kind.TIME).orElse(true)) {
      return value;
    }
    BigDecimal exact = new BigDecimal(m.group(1));
    BigDecimal round = exact.round(new MathContext(2, RoundingMode.HALF_EVEN));
    if (exact.signum() == 0
        || round.compareTo(exact) == 0
        || round.subtract(exact).abs().doubleValue() > TOLERANCE * exact.abs().doubleValue()) {
      return value;
    }
    return round.stripTrailingZeros().toPlainString() + unit;
  }

  /** The value in kB when it is a whole number of kB with a memory unit, else empty. */
  public static Optional<Long> kilobytes(String value) {
    Optional<PgUnit.Quantity> q = PgUnit.Quantity.parse(value.trim());
    if (q.isEmpty()
        || q.get().unit().isEmpty()
        || q.get().unit().get().kind() != PgUnit.Kind.MEMORY) {
      return Optional.empty();
    }
    Optional<BigDecimal> kb = q.get().in(KB);
    if (kb.isEmpty() || kb.get().signum() < 0 || kb.get().stripTrailingZeros().scale() > 0) {
      return Optional.empty();
    }
    return Optional.of(kb.get().longValueExact());
  }

  private static boolean close(long rounded, long exact) {
    return Math.abs(rounded - exact) <= TOLERANCE * exact;
  }

  private static String suffix(long unit) {
    return unit == KB_PER_GB ? "GB" : "MB";
  }
}
