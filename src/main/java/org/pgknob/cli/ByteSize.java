package org.pgknob.cli;

import java.util.OptionalLong;
import org.pgknob.space.PgUnit;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a memory size as PostgreSQL writes it: 512MB, 8GB, 1TB (powers of 1024). */
final class ByteSize implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    OptionalLong size = PgUnit.parseBytes(value);
    if (size.isEmpty()) {
      throw new TypeConversionException(
          "'" + value + "' is not a memory size: write it as 512MB, 8GB or 1TB");
    }
    long bytes = size.getAsLong();
    if (bytes < (64L << 20)) {
      throw new TypeConversionException(
          "'" + value + "' is less than 64MB: no PostgreSQL server runs in that");
    }
    return bytes;
  }
}
