package org.pgknob.cli;

import java.io.PrintWriter;
import java.util.function.Function;
import org.pgknob.PgknobException;
import org.pgknob.session.ProgressPrinter;
import org.pgknob.session.SessionState;
import org.pgknob.session.TuningSession;
import org.pgknob.target.Target;

/**
 * Runs a session created or resumed by {@code tune} or {@code resume} under the shutdown guard, and
 * on any failure marks it failed and puts the server's original settings back.
 */
final class SessionRunner {
  private SessionRunner() {}

  static int run(
      Target target,
      PrintWriter out,
      PrintWriter err,
      Function<ProgressPrinter, TuningSession> open) {
    ProgressPrinter progress = ProgressPrinter.forConsole(out);
    TuningSession session = null;
    try (SessionGuard guard = SessionGuard.install(target, err)) {
      try {
        session = open.apply(progress);
        guard.attach(session);
        session.run();
        out.println("session folder: " + session.folder().dir());
        out.flush();
        return ExitCodes.OK;
      } catch (RuntimeException e) {
        String message = e instanceof PgknobException pe ? pe.oneLine() : e.toString();
        if (session != null) {
          session.markStopped(SessionState.Status.FAILED, message);
        }
        restoreAfterFailure(target, err);
        throw e;
      }
    }
  }

  private static void restoreAfterFailure(Target target, PrintWriter err) {
    try {
      target.restoreOriginals();
      err.println("pgknob: the original settings of " + target.describe() + " are back");
    } catch (RuntimeException e) {
      err.println(
          "pgknob: restoring failed: "
              + e.getMessage()
              + " (run: pgknob restore "
              + target.restoreFile()
              + ")");
    }
    err.flush();
  }
}
