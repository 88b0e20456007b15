package org.pgknob.session;

import java.io.PrintWriter;
import org.pgknob.report.ReportWriter;
import org.pgknob.server.Restorer;
import org.pgknob.server.Target;

/**
 * Ctrl-C and SIGTERM during a session: marks the session stopped (so {@code pgknob resume} can
 * continue it), restores the server's original settings before the JVM exits, then writes the
 * report of the trials finished so far.
 */
final class SessionGuard implements AutoCloseable {
  private final Restorer restorer;
  private volatile TuningSession session;
  private volatile boolean signalled;

  private final Target target;
  private final java.util.function.Supplier<String> stoppedBeforeSession;

  private SessionGuard(
      Target target, PrintWriter err, java.util.function.Supplier<String> stoppedBeforeSession) {
    this.target = target;
    this.stoppedBeforeSession = stoppedBeforeSession;
    this.restorer = Restorer.onShutdown(target, err, this::markStopped, this::endOfStop);
  }

  static SessionGuard install(Target target, PrintWriter err) {
    return install(target, err, () -> "");
  }

  /**
   * @param stoppedBeforeSession what a stop during setup, before the session exists, does once the
   *     server is restored (a new session's folder, empty then, is removed), and its line
   */
  static SessionGuard install(
      Target target, PrintWriter err, java.util.function.Supplier<String> stoppedBeforeSession) {
    return new SessionGuard(target, err, stoppedBeforeSession);
  }

  void attach(TuningSession s) {
    this.session = s;
    if (signalled) {
      s.stopBySignal(); // the signal came during setup: the session starts stopped
    }
  }

  private String markStopped() {
    signalled = true;
    TuningSession s = session;
    if (s == null) {
      return "";
    }
    s.stopBySignal();
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

  /**
   * The verdict and report, then the server left as a finished session leaves it: a managed cluster
   * this session started is stopped (else Ctrl-C left a server running that a session's normal end
   * would have stopped), an existing server keeps running.
   */
  private String endOfStop(String restored) {
    String lines = session == null ? stoppedBeforeSession.get() : verdictAndReport(restored);
    if (restored != null) { // the originals are back: nothing is lost by closing
      try {
        target.close();
      } catch (RuntimeException e) {
        // the restore is what matters; a server left running is the user's to stop
      }
    }
    return lines;
  }

  /** The verdict first (the report shows it), then the stopped session's report. */
  private String verdictAndReport(String restored) {
    String verdict = verdict(restored);
    String report = writeReport();
    return verdict.isEmpty()
        ? report
        : report.isEmpty() ? verdict : verdict + System.lineSeparator() + report;
  }

  /** Once the settings are back: the stopped session's report, from its folder. */
  private String writeReport() {
    TuningSession s = session;
    return s == null ? "" : ReportWriter.writeAfterStop(s.folder().dir());
  }

  /**
   * Whether Ctrl-C or SIGTERM arrived, also before the session existed (its setup: the schema load,
   * whose connections the stop then cuts).
   */
  boolean signalled() {
    return signalled;
  }

  /** After Ctrl-C or SIGTERM: waits until the hook has restored the server and written the end. */
  void awaitHook() {
    restorer.awaitHook();
  }

  /** The session ended on its own: nothing left for the hook to do. */
  @Override
  public void close() {
    restorer.close();
  }
}
