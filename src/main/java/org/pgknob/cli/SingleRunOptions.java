package org.pgknob.cli;

import org.pgknob.workload.WorkloadKind;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Users, warm-up and window of {@code tprocc run}'s one run. Its own declaration rather than {@link
 * RunOptions}, whose help speaks of what tune and compare do with the same options (a session's
 * values, an automatic window) and would describe another command here.
 */
final class SingleRunOptions {
  @Option(
      names = {"--users", "--vus"},
      paramLabel = "N",
      defaultValue = "" + WorkloadKind.DEFAULT_USERS,
      description = "Virtual users, one connection each (default: ${DEFAULT-VALUE}).")
  int users;

  @Option(
      names = "--rampup",
      paramLabel = "TIME",
      defaultValue = RunOptions.DEFAULT_RAMPUP_SECONDS + "s",
      converter = DurationSeconds.class,
      description = "Warm-up before the measured window (default: ${DEFAULT-VALUE}).")
  int rampupSeconds;

  @Option(
      names = "--duration",
      paramLabel = "TIME",
      defaultValue = RunOptions.DEFAULT_WINDOW_SECONDS + "s",
      converter = FixedWindow.class,
      description = "Measured window (default: ${DEFAULT-VALUE}).")
  int windowSeconds;

  /** A window's length; auto, which tune takes, is refused with the reason. */
  static final class FixedWindow implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      if (value.trim().equalsIgnoreCase("auto")) {
        throw new TypeConversionException(
            "auto is for tune, which chooses the window after its baselines; give a length"
                + " here, e.g. 30s");
      }
      return new DurationSeconds().convert(value);
    }
  }
}
