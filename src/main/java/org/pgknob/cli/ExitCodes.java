package org.pgknob.cli;

/** Exit codes of pgknob, in one place. */
public final class ExitCodes {
  public static final int OK = 0;

  /** A user-caused error: bad input, unreachable server, refused setting. */
  public static final int ERROR = 1;

  /** Bad command-line usage. */
  public static final int USAGE = 2;

  /** An unexpected internal error (a bug). */
  public static final int INTERNAL = 3;

  /** Stopped by Ctrl-C or SIGTERM, after restoring the server. */
  public static final int INTERRUPTED = 130;

  private ExitCodes() {}
}
