package org.pgknob.trial;

import java.time.Instant;
import java.util.Map;
import org.pgknob.optimize.History;
import org.pgknob.optimize.OptimizerKind;
import org.pgknob.optimize.Outcome;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.workload.WorkloadResult;

/**
 * One trial of {@code pgknob optimize} (a command's value for a configuration, no server) as the
 * trial record sessions write, so that its trials.jsonl is read by the same reader.
 *
 * <p>What a session's record holds for a server, it holds here for the command: the configuration
 * as the command got it ({@code config}, and {@code settings} rendered in the space's units), and,
 * when the command reported its value, a workload result whose {@code extra} holds every number it
 * printed, the value under its metric's name. Its TPS fields stay 0: the value need not be a rate.
 * The phase is the optimizer's: a sweep's first point (every knob at its default) is the baseline,
 * its other points sweep trials; Bayes's and random search's trials are the search phase, {@link
 * Phase#BAYES} (a session's Bayesian phase too starts from spread-out points). No track: nothing is
 * reloaded or restarted.
 */
public final class CommandTrial {
  private CommandTrial() {}

  /**
   * @param trial 1-based number within the run
   * @param kind the optimizer that proposed the configuration
   * @param proposed the configuration as the optimizer proposed it
   * @param space its search space
   * @param outcome what the command gave: its numbers, or why it failed
   * @param timedOut true when the command overran its time and was stopped
   * @param startedAt when the command started
   * @param seconds how long it ran
   */
  public static TrialResult record(
      int trial,
      OptimizerKind kind,
      Configuration proposed,
      SearchSpace space,
      Outcome outcome,
      boolean timedOut,
      Instant startedAt,
      double seconds) {
    Phase phase = phase(kind, proposed);
    // Every knob's value as the command got it: the proposal, the others at their default.
    Configuration effective = History.effective(space, proposed);
    WorkloadResult measured =
        outcome.isOk()
            ? new WorkloadResult(seconds, 0, 0, 0, 0, null, null, null, outcome.metrics(), null)
            : null;
    Status status = outcome.isOk() ? Status.OK : timedOut ? Status.TIMEOUT : Status.CRASHED;
    return new TrialResult(
        trial,
        phase,
        null,
        phase == Phase.BAYES ? kind.label() + " " + trial : label(phase, proposed, space),
        effective.values(),
        effective.rendered(space),
        status,
        outcome.isOk() ? "" : outcome.reason(),
        measured,
        null,
        null,
        startedAt,
        Map.of("total", seconds));
  }

  private static Phase phase(OptimizerKind kind, Configuration proposed) {
    if (kind != OptimizerKind.SWEEP) {
      return Phase.BAYES;
    }
    return proposed.isEmpty() ? Phase.BASELINE : Phase.SWEEP;
  }

  /** "baseline", or "sweep n=10" as a session labels its sweep trials. */
  private static String label(Phase phase, Configuration proposed, SearchSpace space) {
    if (phase == Phase.BASELINE) {
      return "baseline";
    }
    StringBuilder b = new StringBuilder("sweep");
    proposed.rendered(space).forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
    return b.toString();
  }
}
