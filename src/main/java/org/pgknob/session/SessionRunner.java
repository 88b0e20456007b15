package org.pgknob.session;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Function;
import org.pgknob.PgknobException;
import org.pgknob.report.ReportWriter;
import org.pgknob.server.ApplyReport;
import org.pgknob.server.RestoreNotRecordedException;
import org.pgknob.server.Target;

/**
 * Runs a session created by {@code tune} or {@code compare}, or resumed by {@code resume}, under
 * the shutdown guard, and on any failure marks it failed, puts the server's original settings back
 * and writes the report of the trials finished so far: the restore-on-failure guarantee, kept with
 * the session so that every command running one has it.
 */
public final class SessionRunner {
  private SessionRunner() {}

  /**
   * What a new session does once its folder exists and its server is open: checks that may still
   * refuse it (nothing is recorded yet), then how to create it.
   */
  @FunctionalInterface
  public interface NewSession {
    Function<ProgressPrinter, TuningSession> prepare(SessionFolder folder, Target target);
  }

  /**
   * Runs a new session in a fresh folder under {@code runsDir}: prints "{@code label} ID in DIR",
   * opens the server with the folder's restore file, prepares and runs the session. When anything
   * fails before the session recorded a file, the empty folder is removed, so a refused setup
   * leaves nothing behind.
   *
   * @param label what the first line calls the run: session, comparison
   * @param openTarget opens the server, given the restore file to record its original settings in
   */
  public static void runInNewFolder(
      Path runsDir,
      String label,
      Function<Path, Target> openTarget,
      PrintWriter out,
      PrintWriter err,
      NewSession newSession) {
    SessionFolder folder = SessionFolder.create(runsDir, Clock.systemUTC());
    out.println(label + " " + folder.id() + " in " + folder.dir());
    out.flush();
    // The catch runs after the target is closed, so a failure to close it is handled too.
    try (Target target = openTarget.apply(folder.file(SessionFolder.RESTORE_FILE))) {
      // A stop during setup ends the JVM once the hook is done: the hook removes the empty folder,
      // as the catch below does for a failure (a Ctrl-C during the schema load left it).
      run(
          target,
          out,
          err,
          newSession.prepare(folder, target),
          () ->
              folder.removeIfEmpty()
                  ? "nothing was recorded: " + folder.dir() + " is removed"
                  : "");
    } catch (RuntimeException e) {
      if (folder.removeIfEmpty()) {
        // the first line named this folder: say it is gone, so nobody looks for it
        out.println("nothing was recorded: " + folder.dir() + " is removed");
        out.flush();
      }
      throw e;
    }
  }

  /**
   * {@link #runInNewFolder}, and with {@code json} the session's progress goes to {@code err} and
   * its final summary.json (verdict, results table) to {@code out}, for scripts.
   */
  public static void runInNewFolder(
      boolean json,
      Path runsDir,
      String label,
      Function<Path, Target> openTarget,
      PrintWriter out,
      PrintWriter err,
      NewSession newSession) {
    if (!json) {
      runInNewFolder(runsDir, label, openTarget, out, err, newSession);
      return;
    }
    SessionFolder[] folder = new SessionFolder[1];
    runInNewFolder(
        runsDir,
        label,
        openTarget,
        err,
        err,
        (f, target) -> {
          folder[0] = f;
          return newSession.prepare(f, target);
        });
    try {
      out.print(
          org.pgknob.Json.mapper()
                  .writerWithDefaultPrettyPrinter()
                  .writeValueAsString(folder[0].readSummary())
              + "\n");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new PgknobException(
          "cannot write the summary as JSON: " + e.getOriginalMessage(),
          "read " + folder[0].file(SessionFolder.SUMMARY_FILE) + " instead");
    }
    out.flush();
  }

  public static void run(
      Target target,
      PrintWriter out,
      PrintWriter err,
      Function<ProgressPrinter, TuningSession> open) {
    run(target, out, err, open, () -> "");
  }

  /**
   * {@link #run(Target, PrintWriter, PrintWriter, Function)}; a Ctrl-C or SIGTERM before the
   * session exists (during its setup) runs {@code stoppedBeforeSession} once the server is
   * restored, and prints its line.
   */
  static void run(
      Target target,
      PrintWriter out,
      PrintWriter err,
      Function<ProgressPrinter, TuningSession> open,
      java.util.function.Supplier<String> stoppedBeforeSession) {
    ProgressPrinter progress = ProgressPrinter.forConsole(out);
    TuningSession session = null;
    try (SessionGuard guard = SessionGuard.install(target, err, stoppedBeforeSession)) {
      try {
        session = open.apply(progress);
        guard.attach(session);
        session.run();
        out.println("session folder: " + session.folder().dir());
        out.flush();
      } catch (ServerUnreachableException e) {
        // The session is stopped and its restore file pending: nothing reaches the server now.
        throw e;
      } catch (RuntimeException e) {
        // A stop during setup (session still null) cuts the schema load's connections: what fails
        // then is the stop, not the build ("building the TPROC-C database failed ... check free
        // disk space" was printed after "stopped; restored ...").
        if ((session != null && session.stoppedBySignal()) || guard.signalled()) {
          // Ctrl-C or SIGTERM: the session ends with StoppedBySignalException, or with whatever
          // the hook's restore made fail; the stop is what happened either way. The hook restores
          // with the target's connections, so the target must not be closed before it is done;
          // the JVM exits then.
          guard.awaitHook();
          throw e instanceof StoppedBySignalException ? e : new StoppedBySignalException();
        }
        String message = e instanceof PgknobException pe ? pe.oneLine() : e.toString();
        if (session != null) {
          try {
            session.markStopped(SessionState.Status.FAILED, message);
          } catch (RuntimeException notRecorded) {
            // A full disk fails this too: the restore below matters more than the record, and the
            // failure the user must see is the first one.
            e.addSuppressed(notRecorded);
          }
        }
        RuntimeException thrown = restoreAfterFailure(target, out, e);
        boolean back = thrown == e || thrown.getCause() instanceof RestoreNotRecordedException;
        recordFailure(session, back ? "the original settings are back" : null, out);
        if (session != null) {
          out.println(ReportWriter.writeAfterStop(session.folder().dir()));
          out.flush();
        }
        throw thrown;
      }
    }
  }

  /** Writes and prints the failed session's verdict; a failure to do so hides nothing else. */
  private static void recordFailure(TuningSession session, String restored, PrintWriter out) {
    if (session == null) {
      return;
    }
    try {
      session.recordUnfinished(restored).ifPresent(v -> v.lines().forEach(out::println));
      out.flush();
    } catch (RuntimeException e) {
      // the error itself is what the user must see
    }
  }

  /**
   * Puts the original settings back after {@code failure} and returns what to throw: the failure
   * itself, or, when restoring failed too, one error that says both (the user's next step is the
   * restore), or, when the settings are back but the restore file could not record it (a full
   * disk), one error that says so; a failure that is such a restore already (after an outage) is
   * returned as it is. Says the settings are back only when there was something to put back.
   */
  static RuntimeException restoreAfterFailure(
      Target target, PrintWriter out, RuntimeException failure) {
    if (failure instanceof RestoreNotRecordedException notRecorded) {
      // The session failed in a restore (after the server came back) that put the settings back
      // and could not record it: a second one would say the same twice.
      out.println("the original settings of " + notRecorded.server() + " are back");
      out.flush();
      return failure;
    }
    String cause =
        failure instanceof PgknobException pe ? pe.getMessage() : "internal error: " + failure;
    try {
      ApplyReport report = target.restoreOriginals();
      if (report.reloaded() || !report.changes().isEmpty()) {
        out.println("the original settings of " + target.describe() + " are back");
        out.flush();
      }
      return failure;
    } catch (RestoreNotRecordedException e) {
      // The server is as it was; only its record lags: room on the disk (often the failure's own
      // fix) and a pgknob restore afterwards settle it.
      out.println("the original settings of " + e.server() + " are back");
      out.flush();
      // "free space on the disk that holds DIR": said once when the failure's fix says it too
      String room = e.fix().substring(0, e.fix().indexOf(','));
      String fix =
          failure instanceof PgknobException pe && !pe.fix().startsWith(room)
              ? pe.fix() + "; then " + e.fix()
              : e.fix();
      return new PgknobException(cause + "; " + e.getMessage(), fix, e);
    } catch (RuntimeException e) {
      return new PgknobException(
          cause + "; restoring the original settings failed too: " + e.getMessage(),
          "run: pgknob restore " + target.restoreFile(),
          failure);
    }
  }
}
