package org.pgknob.session;

/**
 * Ends a session's thread after Ctrl-C or SIGTERM: the shutdown hook has marked the session stopped
 * and restores the server, records the verdict and writes the report; the thread only has to stop
 * without a word, since the JVM exits once the hook is done.
 */
public final class StoppedBySignalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoppedBySignalException() {
    super("stopped by Ctrl-C or SIGTERM", null, false, false);
  }
}
