package org.pgknob.cli;

import java.time.Duration;
import org.pgknob.PgknobException;
import picocli.CommandLine.Option;

/**
 * {@code --server-wait}: how long a session waits for its server when it stops answering mid-trial
 * (tune, compare, resume).
 */
final class ServerWaitOption {
  /** A day: longer, and nobody is watching the session any more. */
  private static final int MAX_SECONDS = 86_400;

  @Option(
      names = "--server-wait",
      paramLabel = "DURATION",
      defaultValue = "5m",
      converter = DurationSeconds.class,
      description =
          "When the server stops answering mid-trial (a dropped link), wait this long for it, then"
              + " restore its settings and go on; 0 stops at once (default: ${DEFAULT-VALUE}).")
  int seconds;

  /** The wait, checked: one line naming the range when it is out of it. */
  Duration longest() {
    if (seconds < 0 || seconds > MAX_SECONDS) {
      throw new PgknobException(
          "--server-wait must be between 0 and 24h, but got " + seconds + " s",
          "give how long to wait for a server that stops answering, e.g. --server-wait 5m");
    }
    return Duration.ofSeconds(seconds);
  }
}
