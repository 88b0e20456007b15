package org.pgknob.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a memory size as PostgreSQL writes it: 512MB, 8GB, 1TB (powers of 1024). */
final class ByteSize implements ITypeConverter<Long> {
  private static final Pattern SIZE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(B|kB|KB|MB|GB|TB)?", Pattern.CASE_INSENSITIVE);

  @Override
  public Long convert(String value) {
    Matcher m = SIZE.matcher(value.trim());
    if (!m.matches()) {
      throw new TypeConversionException(
          "'" + value + "' is not a memory size: write it as 512MB, 8GB or 1TB");
    }
    double number = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
    long factor =
        switch (unit) {
          case "KB" -> 1L << 10;
          case "MB" -> 1L << 20;
          case "GB" -> 1L << 30;
          case "TB" -> 1L << 40;
          default -> 1L;
        };
    long bytes = (long) (number * factor);
    if (bytes < (64L << 20)) {
      throw new TypeConversionException(
          "'" + value + "' is less than 64MB: no PostgreSQL server runs in that");
    }
    return bytes;
  }
}
