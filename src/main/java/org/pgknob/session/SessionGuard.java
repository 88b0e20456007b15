package org.pgknob.session;

import java.io.PrintWriter;
import org.pgknob.server.Restorer;
import org.pgknob.server.Target;

/**
 * Ctrl-C and SIGTERM during a session: marks the session stopped (so {@code pgknob resume} can
 * continue it), then restores the server's original settings before the JVM exits.
 */
final class SessionGuard implements AutoCloseable {
  private final Restorer restorer;
  private volatile TuningSession session;

  private SessionGuard(Target target, PrintWriter err) {
    this.restorer = Restorer.onShutdown(target, err, this::markStopped);
  }

  static SessionGuard install(Target target, PrintWriter err) {
    return new SessionGuard(target, err);
  }

  void attach(TuningSession s) {
    this.session = s;
  }

  private String markStopped() {
    TuningSession s = session;
    if (s == null) {
      return "";
    }
    s.markStopped(SessionState.Status.STOPPED, "stopped by a signal (Ctrl-C or SIGTERM)");
    return "continue with: pgknob resume " + s.folder().dir();
  }

  /** The session ended on its own: nothing left for the hook to do. */
  @Override
  public void close() {
    restorer.close();
  }
}
