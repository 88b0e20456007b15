package org.pgknob.cli;

import java.io.PrintWriter;
import org.pgknob.session.SessionState;
import org.pgknob.session.TuningSession;
import org.pgknob.target.Target;

/**
 * Ctrl-C and SIGTERM during a session: marks the session stopped (so {@code pgknob resume} can
 * continue it) and restores the server's original settings before the JVM exits.
 */
final class SessionGuard implements AutoCloseable {
  private final Thread hook;
  private volatile TuningSession session;
  private volatile boolean done;

  private SessionGuard(Target target, PrintWriter err) {
    this.hook =
        new Thread(
            () -> {
              if (done) {
                return;
              }
              TuningSession s = session;
              if (s != null) {
                try {
                  s.markStopped(
                      SessionState.Status.STOPPED, "stopped by a signal (Ctrl-C or SIGTERM)");
                } catch (RuntimeException e) {
                  // the folder may be unwritable; restoring the server matters more
                }
              }
              try {
                var report = target.restoreOriginals();
                err.println(
                    "pgknob: stopped; the original settings of "
                        + target.describe()
                        + " are back ("
                        + report.changes().size()
                        + " changed back)"
                        + (s == null ? "" : "; continue with: pgknob resume " + s.folder().dir()));
              } catch (RuntimeException e) {
                err.println(
                    "pgknob: stopped, but restoring failed: "
                        + e.getMessage()
                        + " (run: pgknob restore "
                        + target.restoreFile()
                        + ")");
              }
              err.flush();
            },
            "pgknob-session-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  static SessionGuard install(Target target, PrintWriter err) {
    return new SessionGuard(target, err);
  }

  void attach(TuningSession s) {
    this.session = s;
  }

  /** The session ended on its own: nothing left for the hook to do. */
  @Override
  public void close() {
    done = true;
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already stopping and the hook runs
    }
  }
}
