package org.pgknob.cli;

import org.pgknob.PgknobException;
import org.pgknob.session.SessionInputs;
import org.pgknob.workload.WorkloadKind;
import picocli.CommandLine.Option;

/**
 * How long each run ramps up and measures, and its users: one declaration for {@code tune} and
 * {@code compare} ({@code tprocc run}'s one run has {@link SingleRunOptions}). Unset options are
 * null, so {@code compare} can take the compared session's values; the defaults are the constants
 * here and the workload's own.
 */
final class RunOptions {
  static final int DEFAULT_RAMPUP_SECONDS = SessionInputs.DEFAULT_RAMPUP_SECONDS;
  static final int DEFAULT_WINDOW_SECONDS = SessionInputs.DEFAULT_WINDOW_SECONDS;

  @Option(
      names = {"--users", "--vus"},
      paramLabel = "N",
      description =
          "Virtual users (pgbench's clients), one connection each (default: "
              + WorkloadKind.DEFAULT_USERS
              + "; compare: the session's).")
  Integer users;

  @Option(
      names = "--rampup",
      paramLabel = "TIME",
      converter = DurationSeconds.class,
      description =
          "Warm-up before each measured window (default: "
              + DEFAULT_RAMPUP_SECONDS
              + "s; compare: the session's).")
  Integer rampupSeconds;

  @Option(
      names = "--duration",
      paramLabel = "TIME|auto",
      converter = WindowLength.Converter.class,
      description =
          "Measured window of each run (default: "
              + DEFAULT_WINDOW_SECONDS
              + "s; compare: the session's). tune also takes auto: the window is chosen after the"
              + " baselines from their noise, and the plan remade.")
  WindowLength window;

  int rampupSecondsOr(int otherwise) {
    return rampupSeconds != null ? rampupSeconds : otherwise;
  }

  /**
   * The window given, else {@code otherwise}.
   *
   * @throws PgknobException for auto: only tune chooses a window
   */
  int windowSecondsOr(int otherwise) {
    if (autoWindow()) {
      throw new PgknobException(
          "--duration auto is for tune, which chooses the window after its baselines; this command"
              + " measures windows of a length given",
          "give a length, e.g. --duration 30s, or leave --duration out");
    }
    return window != null ? window.seconds() : otherwise;
  }

  /** Whether --duration auto was given. */
  boolean autoWindow() {
    return window != null && window.auto();
  }
}
