package org.pgknob.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a duration as seconds: "90", "90s", "2m", "1h". */
final class DurationSeconds implements ITypeConverter<Integer> {
  @Override
  public Integer convert(String value) {
    String v = value.trim().toLowerCase(java.util.Locale.ROOT);
    int factor = 1;
    if (v.endsWith("s")) {
      v = v.substring(0, v.length() - 1);
    } else if (v.endsWith("m")) {
      factor = 60;
      v = v.substring(0, v.length() - 1);
    } else if (v.endsWith("h")) {
      factor = 3600;
      v = v.substring(0, v.length() - 1);
    }
    try {
      return Math.multiplyExact(Integer.parseInt(v), factor);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new TypeConversionException(
          "'"
              + value
              + "' is not a duration: write seconds (90 or 90s), minutes (2m) or hours (1h)");
    }
  }
}
