package org.pgknob.report;

import java.math.BigDecimal;
import java.util.Optional;
import org.pgknob.space.PgUnit;

/**
 * Memory values written the way a DBA writes them: {@code 6GB}, {@code 18GB}, {@code 72MB} instead
 * of {@code 6170887kB}. A value becomes a whole number of the largest unit (GB, then MB) that is
 * within {@link #TOLERANCE} of it; otherwise it keeps its exact value in kB.
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
