package org.pgknob.workload.tprocc;

import java.util.SplittableRandom;

/**
 * TPC-C's random functions (clause 4.3.2): uniform numbers, NURand, last names from syllables and
 * random strings. One instance per thread: it is not thread-safe, and it is fast.
 */
public final class TpccRandom {
  /**
   * NURand's run-time constants. TPC-C requires the last-name constant at run time to differ from
   * the one used at load by 65..119 (not 96 or 112), so the run's names are not the load's.
   */
  public static final int C_LAST_LOAD = 157;

  public static final int C_LAST_RUN = 223;
  static final int C_CUSTOMER_ID = 259;
  static final int C_ITEM_ID = 7911;

  private static final String[] SYLLABLES = {
    "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"
  };
  private static final char[] ALPHANUMERIC =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

  private final SplittableRandom random;

  public TpccRandom(long seed) {
    this.random = new SplittableRandom(seed);
  }

  public TpccRandom() {
    this.random = new SplittableRandom();
  }

  /** A uniform integer in [low, high]. */
  public int uniform(int low, int high) {
    return random.nextInt(low, high + 1);
  }

  /** A uniform double in [0, 1). */
  public double nextDouble() {
    return random.nextDouble();
  }

  /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x. */
  public int nonUniform(int a, int c, int low, int high) {
    return (((uniform(0, a) | uniform(low, high)) + c) % (high - low + 1)) + low;
  }

  /** A customer id for a transaction: NURand(1023, 1, 3000). */
  public int customerId() {
    return nonUniform(1023, C_CUSTOMER_ID, 1, 3000);
  }

  /** An item id for a new-order line: NURand(8191, 1, 100000). */
  public int itemId() {
    return nonUniform(8191, C_ITEM_ID, 1, 100_000);
  }

  /** A last name's number for a transaction: NURand(255, 0, 999) with the run-time constant. */
  public int lastNameNumberForRun() {
    return nonUniform(255, C_LAST_RUN, 0, 999);
  }

  /** A last name's number for the load: NURand(255, 0, 999) with the load constant. */
  public int lastNameNumberForLoad() {
    return nonUniform(255, C_LAST_LOAD, 0, 999);
  }

  /** The last name of number 0..999: three syllables picked by its decimal digits. */
  public static String lastName(int number) {
    return SYLLABLES[number / 100] + SYLLABLES[(number / 10) % 10] + SYLLABLES[number % 10];
  }

  /** Appends a random alphanumeric string of length in [minLength, maxLength]. */
  public void appendAlpha(StringBuilder out, int minLength, int maxLength) {
    int length = uniform(minLength, maxLength);
    for (int i = 0; i < length; i++) {
      out.append(ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)]);
    }
  }

  /** A random alphanumeric string of length in [minLength, maxLength]. */
  public String alpha(int minLength, int maxLength) {
    StringBuilder out = new StringBuilder(maxLength);
    appendAlpha(out, minLength, maxLength);
    return out.toString();
  }

  /** A random string of {@code length} digits. */
  public String digits(int length) {
    char[] out = new char[length];
    for (int i = 0; i < length; i++) {
      out[i] = (char) ('0' + random.nextInt(10));
    }
    return new String(out);
  }

  /** i_data or s_data: 26..50 characters, 10% of them with "ORIGINAL" at a random place. */
  public String data() {
    String data = alpha(26, 50);
    if (uniform(1, 10) == 1) {
      int at = uniform(0, data.length() - 8);
      data = data.substring(0, at) + "ORIGINAL" + data.substring(at + 8);
    }
    return data;
  }

  /** A zip code: four random digits and "11111". */
  public String zip() {
    return digits(4) + "11111";
  }

  /** A random permutation of 1..n. */
  public int[] permutation(int n) {
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = i + 1;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = values[i];
      values[i] = values[j];
      values[j] = swap;
    }
    return values;
  }
}
