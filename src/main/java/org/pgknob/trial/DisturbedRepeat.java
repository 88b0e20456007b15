package org.pgknob.trial;

import java.time.Duration;

/**
 * Whether a trial whose window other processes disturbed ({@link
 * org.pgknob.server.ResourceSummary#disturbedByOtherProcesses()}) runs its window again, and how
 * long it waits for the host to go quiet first. One instance lives as long as its session: it
 * remembers the waits that found no quiet.
 *
 * <p>A disturbed window says less about the configuration than about the build or the cron job
 * beside it, and the rules that leave such runs out of the noise and of validation's pairs can only
 * drop them, which leaves fewer runs to judge by. Running the window again once the host is quiet
 * replaces it with a measurement of the configuration. Whether a window is repeated depends on the
 * other processes' CPU only, never on its TPS, so the repeats do not favour a configuration.
 *
 * <p>Used by the session's thread alone, as its trials run one after the other.
 *
 * <p>On a host busy for good every wait would fail and cost its whole length: after {@value
 * #FRUITLESS_WAITS_TO_STOP} such waits in a row no trial waits, until one comes out undisturbed
 * (the host went quiet on its own) and the waits begin again.
 */
public final class DisturbedRepeat {
  /** Waits in a row that found no quiet, after which trials stop waiting for it. */
  static final int FRUITLESS_WAITS_TO_STOP = 2;

  private final Duration longestWait;
  private int fruitlessWaitsInARow;

  private DisturbedRepeat(Duration longestWait) {
    this.longestWait = longestWait;
  }

  /** A disturbed window is kept as it is: nothing waits, nothing runs again. */
  public static DisturbedRepeat never() {
    return new DisturbedRepeat(Duration.ZERO);
  }

  /**
   * A disturbed window runs again once the host has been quiet for {@link QuietWait#QUIET_SAMPLES}
   * samples in a row, waiting for that at most {@code longestWait}; zero never repeats.
   */
  public static DisturbedRepeat waitingAtMost(Duration longestWait) {
    if (longestWait.isNegative()) {
      throw new IllegalArgumentException("a negative wait: " + longestWait);
    }
    return new DisturbedRepeat(longestWait);
  }

  public Duration longestWait() {
    return longestWait;
  }

  /** Whether the next disturbed window waits for quiet and runs again. */
  boolean waitsNow() {
    return !longestWait.isZero() && fruitlessWaitsInARow < FRUITLESS_WAITS_TO_STOP;
  }

  /** A wait ended: found quiet, or gave up at its longest. */
  void waited(boolean foundQuiet) {
    fruitlessWaitsInARow = foundQuiet ? 0 : fruitlessWaitsInARow + 1;
  }

  /** A window ran undisturbed: the host is quiet again, so later disturbed windows wait again. */
  void undisturbedWindow() {
    fruitlessWaitsInARow = 0;
  }
}
