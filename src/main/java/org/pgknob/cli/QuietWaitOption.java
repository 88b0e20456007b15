package org.pgknob.cli;

import java.time.Duration;
import org.pgknob.PgknobException;
import picocli.CommandLine.Option;

/**
 * {@code --quiet-wait}: how long a trial whose window other processes disturbed waits for the host
 * to go quiet before it runs its window again (tune, compare, resume).
 */
final class QuietWaitOption {
  /** An hour: a host busy longer than that is busy for the session, and waiting only costs it. */
  private static final int MAX_SECONDS = 3_600;

  @Option(
      names = "--quiet-wait",
      paramLabel = "DURATION",
      defaultValue = "2m",
      converter = DurationSeconds.class,
      description =
          "When other processes on the host (a build, a cron job, another client's query) took"
              + " over an eighth of its cores during a trial's window, wait up to this long for the"
              + " host to go quiet and run the window again; 0 keeps the disturbed window (default:"
              + " ${DEFAULT-VALUE}).")
  int seconds;

  /** The wait, checked: one line naming the range when it is out of it. */
  Duration longest() {
    if (seconds < 0 || seconds > MAX_SECONDS) {
      throw new PgknobException(
          "--quiet-wait must be between 0 and 1h, but got " + seconds + " s",
          "give how long a disturbed trial may wait for a quiet host, e.g. --quiet-wait 2m, or 0"
              + " to keep disturbed windows");
    }
    return Duration.ofSeconds(seconds);
  }
}
