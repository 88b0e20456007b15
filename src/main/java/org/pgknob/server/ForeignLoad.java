package org.pgknob.server;

import java.util.Locale;
import java.util.Optional;

/**
 * Says, in one phrase for the console and the report, that other processes on the host took CPU
 * during a trial's window (see {@link ResourceSummary#disturbedByOtherProcesses()}).
 */
public final class ForeignLoad {
  private ForeignLoad() {}

  /**
   * "other processes used 1.3 of 2 cores during the window" when the trial was disturbed, empty
   * otherwise (and for records without the figures).
   */
  public static Optional<String> note(ResourceSummary resources) {
    if (resources == null || !resources.disturbedByOtherProcesses()) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "other processes used %.1f of %d cores during the window",
            resources.foreignCpuAvgCores(),
            resources.hostCores()));
  }
}
