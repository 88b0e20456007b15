package org.pgknob.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a file or folder argument. An empty one is refused: Java reads "" as the current folder, so
 * {@code --out ""} would write into wherever pgknob was started.
 */
final class PathArgument implements ITypeConverter<Path> {
  @Override
  public Path convert(String value) {
    if (value.isBlank()) {
      throw new TypeConversionException("an empty path names no file or folder");
    }
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new TypeConversionException("'" + value + "' is not a path: " + e.getReason());
    }
  }
}
