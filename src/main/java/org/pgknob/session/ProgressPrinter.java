package org.pgknob.session;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.server.ForeignLoad;
import org.pgknob.trial.BestSoFar;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Live progress of a session on the console: the phase, trial k of n with its changes from the
 * defaults, the TPS of each second of the window, the trial's result (with a warning when other
 * processes on the host took CPU during the window), and the best so far per track on the session's
 * objective, TPS or average latency ({@link BestSoFar}: the report's convergence chart of that
 * objective draws the same).
 *
 * <p>On a terminal the live TPS is one line rewritten in place (carriage return); otherwise (a log
 * file, a pipe) it prints a plain line every {@value #PLAIN_EVERY_SECONDS} seconds instead, so logs
 * stay readable. The session calls it from its own thread and the workload's; methods are
 * synchronized.
 */
public final class ProgressPrinter {
  static final int PLAIN_EVERY_SECONDS = 10;

  private PrintWriter out; // a writer to nowhere once silenced
  private final boolean terminal;
  private BestSoFar best = BestSoFar.tps(); // the objective's, from alreadyLogged
  private Goal objective = Goal.TPS;
  private int liveWidth;
  private java.time.Clock clock; // null until the session starts its trials
  private java.time.Instant clockStart; // elapsed counts from here
  private java.time.Instant rateStart; // the trials since here give the time a trial takes
  private int firstTrial;
  private double estimatedTrialSeconds;
  private double repeatSeconds; // spent since the clock started on windows run again (see times)

  public ProgressPrinter(PrintWriter out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  /** A printer for standard output: in place when it is a terminal, plain lines otherwise. */
  public static ProgressPrinter forConsole(PrintWriter out) {
    return new ProgressPrinter(out, System.console() != null);
  }

  /** A phase begins: "== sweep: 12 trials over 4 knobs". */
  public synchronized void phase(Phase phase, String detail) {
    endLive();
    out.println("== " + phase.label() + (detail == null || detail.isEmpty() ? "" : ": " + detail));
    out.flush();
  }

  /**
   * Starts the clock for elapsed and remaining times on trial lines: the session (or its resumed
   * part) began at {@code start}, its first trial is {@code firstTrial}, and a trial takes about
   * {@code trialSeconds} until measured ones say otherwise.
   */
  public synchronized void clock(java.time.Clock clock, int firstTrial, double trialSeconds) {
    this.clock = clock;
    this.clockStart = clock.instant();
    trialsFrom(firstTrial, trialSeconds);
  }

  /**
   * The trials from {@code firstTrial} on take about {@code trialSeconds} until measured ones say
   * otherwise: the window changed (--duration auto), so those before say nothing of their length.
   * Elapsed still counts from the clock's start: it printed 0 s after the baselines' minute.
   */
  public synchronized void trialsFrom(int firstTrial, double trialSeconds) {
    this.rateStart = clock.instant();
    this.firstTrial = firstTrial;
    this.estimatedTrialSeconds = trialSeconds;
    this.repeatSeconds = 0;
  }

  /**
   * A trial begins: its number, the plan's length, label and changes from the defaults; the time
   * left counts {@code expectedTrials}, which may exceed the plan's length by the validation rounds
   * that the budget's time will buy ({@link ValidationTime#expectedTrials}).
   */
  public synchronized void trialStarted(
      int trial, int totalTrials, int expectedTrials, String label, Map<String, String> changes) {
    endLive();
    out.printf(
        Locale.ROOT, "[%d/%d] %s%s%n", trial, totalTrials, label, times(trial, expectedTrials));
    out.println(
        "  changes: "
            + (changes.isEmpty()
                ? "none (defaults)"
                : new TreeMap<>(changes)
                    .entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(", "))));
    out.flush();
  }

  /** One second of the measured window: the TPS of that second. */
  public synchronized void liveTps(int second, int windowSeconds, double tps) {
    String text = String.format(Locale.ROOT, "  %d/%d s: %.0f TPS", second, windowSeconds, tps);
    if (terminal) {
      out.print("\r" + text + " ".repeat(Math.max(0, liveWidth - text.length())));
      liveWidth = text.length();
      out.flush();
    } else if (second % PLAIN_EVERY_SECONDS == 0) {
      out.println(text);
      out.flush();
    }
  }

  /**
   * The session's tracks and objective, and the trials a resumed session logged before: they count
   * for the best so far, printed with the first new trial, as the report's convergence chart counts
   * them; the baseline's runs count in the first track ({@link BestSoFar#defaultsCountIn}). Why the
   * objective: a latency session printed the best TPS after every trial, a figure it was not
   * searching for, and never its own.
   */
  public synchronized void alreadyLogged(
      java.util.List<Track> tracks, Goal objective, java.util.List<TrialResult> trials) {
    this.objective = objective;
    best = objective == Goal.LATENCY ? BestSoFar.averageLatency() : BestSoFar.tps();
    if (!tracks.isEmpty()) {
      best.defaultsCountIn(tracks.get(0));
    }
    trials.forEach(best::offer);
  }

  /** A trial ended: its figures (or why it failed) and the best so far per track. */
  public synchronized void trialFinished(TrialResult result) {
    endLive();
    repeatSeconds += repeatSeconds(result);
    if (result.isOk()) {
      var w = result.workload();
      // A benchmark command may report TPS alone: what it left out (0) is not printed.
      out.printf(
          Locale.ROOT,
          "  -> %.1f TPS%s%s%s%n",
          w.tps(),
          w.tpccFigures()
              .filter(f -> f.nopm() > 0)
              .map(f -> String.format(Locale.ROOT, ", %.0f NOPM", f.nopm()))
              .orElse(""),
          w.overall().avgMs() > 0
              ? String.format(Locale.ROOT, ", %.2f ms avg", w.overall().avgMs())
              : "",
          w.overall().p95Ms() > 0
              ? String.format(Locale.ROOT, ", %.2f ms p95", w.overall().p95Ms())
              : "");
      best.offer(result);
    } else {
      out.printf(
          Locale.ROOT,
          "  -> %s%s%n",
          result.status().name().toLowerCase(Locale.ROOT).replace('_', ' '),
          result.reason().isEmpty() ? "" : ": " + result.reason());
    }
    ForeignLoad.note(result.resources())
        .ifPresent(
            note ->
                out.printf(
                    Locale.ROOT,
                    "  ! trial %d: %s; %s%n",
                    result.trial(),
                    note,
                    result.isOk() ? "its numbers may be low" : "that may be why it failed"));
    if (!best.byTrack().isEmpty()) {
      out.println(
          "  best window so far: "
              + best.byTrack().entrySet().stream()
                  .map(
                      e ->
                          String.format(
                              Locale.ROOT,
                              objective == Goal.LATENCY
                                  ? "%s %.2f ms avg (trial %d)"
                                  : "%s %.1f TPS (trial %d)",
                              e.getKey(),
                              best.valueOf(e.getValue()),
                              e.getValue().trial()))
                  .collect(Collectors.joining(", ")));
    }
    out.flush();
  }

  /** A free message: "restoring the original settings", "stopped by Ctrl-C". */
  public synchronized void note(String message) {
    endLive();
    out.println(message);
    out.flush();
  }

  /**
   * Prints nothing more: the session was stopped by a signal, and what its thread still does until
   * the JVM exits is not progress. An in-place line is ended first, so the stop message starts on a
   * fresh one.
   */
  public synchronized void silence() {
    endLive();
    out.flush();
    out = new PrintWriter(java.io.Writer.nullWriter());
  }

  /** " (3 min elapsed, about 5 min left)" once the clock runs, else empty. */
  private String times(int trial, int totalTrials) {
    if (clock == null) {
      return "";
    }
    double elapsed = java.time.Duration.between(clockStart, clock.instant()).toMillis() / 1000.0;
    double sinceRate = java.time.Duration.between(rateStart, clock.instant()).toMillis() / 1000.0;
    int done = trial - firstTrial;
    // Measured trials say more than the estimate once there are any. A window that other processes
    // disturbed, waited for quiet and ran again is an accident of the host, not the length of the
    // trials to come: one such early trial once doubled the time left.
    double perTrial = done > 0 ? (sinceRate - repeatSeconds) / done : estimatedTrialSeconds;
    double left = perTrial * (totalTrials - trial + 1);
    return "  ("
        + PlanSummary.duration(Math.round(elapsed))
        + " elapsed, about "
        + PlanSummary.duration(Math.round(left))
        + " left)";
  }

  /** The seconds a trial spent on a disturbed window: the wait for quiet and the window again. */
  private static double repeatSeconds(TrialResult result) {
    return java.util.stream.Stream.of("quietWait", "rerunReset", "rerun")
        .map(result.timingsSeconds()::get)
        .filter(s -> s != null && s > 0)
        .mapToDouble(Double::doubleValue)
        .sum();
  }

  /** Ends an in-place line so the next output starts on a fresh one. */
  private void endLive() {
    if (terminal && liveWidth > 0) {
      out.println();
      liveWidth = 0;
    }
  }
}
