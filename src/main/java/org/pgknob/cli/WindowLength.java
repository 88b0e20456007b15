package org.pgknob.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * What {@code --duration} says: a window length in seconds, or {@code auto} (tune measures its
 * baselines with the default window, then chooses one from their noise).
 *
 * @param seconds the window length; 0 when auto
 * @param auto whether the session chooses the length
 */
record WindowLength(int seconds, boolean auto) {
  static final WindowLength AUTO = new WindowLength(0, true);

  /** Reads "auto" or a duration as {@link DurationSeconds} does, naming every form it takes. */
  static final class Converter implements ITypeConverter<WindowLength> {
    @Override
    public WindowLength convert(String value) {
      if (value.trim().equalsIgnoreCase("auto")) {
        return AUTO;
      }
      try {
        return new WindowLength(new DurationSeconds().convert(value), false);
      } catch (TypeConversionException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a duration: give 90 or 90s, 2m, 1h, or auto (tune only)");
      }
    }
  }
}
