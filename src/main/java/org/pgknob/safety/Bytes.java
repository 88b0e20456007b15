package org.pgknob.safety;

import java.util.Locale;

/** Byte counts for people: 512 MiB, 1.5 GiB. */
public final class Bytes {
  private Bytes() {}

  public static String format(double bytes) {
    String[] units = {"B", "kiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return (v == Math.rint(v)
            ? String.format(Locale.ROOT, "%.0f", v)
            : String.format(Locale.ROOT, "%.1f", v))
        + " "
        + units[u];
  }
}
