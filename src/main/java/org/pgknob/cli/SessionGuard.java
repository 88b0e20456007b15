package org.pgknob.cli;

import java.io.PrintWriter;
import org.pgknob.server.Restorer;
import org.pgknob.server.Target;
import org.pgknob.session.SessionState;
import org.pgknob.session.TuningSession;

/**
 * Ctrl-C and SIGTERM during a session: marks the session stopped (so {@code pgknob resume} can
 * continue it), then restores the server's original settings before the JVM exits.
 */
final class SessionGuard implements AutoCloseable {
  private final Restorer restorer;
  private volatile TuningSession session;

  private SessionGuard(Target target, PrintWriter err) {
    this.restorer = Restorer.onShutdown(target, err, this::markStopped, this::verdict);
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

  /** Records the stopped session's verdict once the restore is done; its lines for the console. */
  private String verdict(String restored) {
    TuningSession s = session;
    if (s == null) {
      return "";
    }
    return s.recordUnfinished(restored)
        .map(v -> String.join(System.lineSeparator(), v.lines()))
        .orElse("");
  }

  /** The session ended on its own: nothing left for the hook to do. */
  @Override
  public void close() {
    restorer.close();
  }
}
