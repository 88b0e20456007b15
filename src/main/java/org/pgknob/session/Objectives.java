package org.pgknob.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.pgknob.optimize.Objective;
import org.pgknob.optimize.Observation;
import org.pgknob.optimize.Outcome;
import org.pgknob.runs.Goal;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.TrialResult;

/**
 * How trials become optimizer observations. The session's two objectives are named {@code tps} and
 * {@code latency}:
 *
 * <ul>
 *   <li>{@code tps} is the throughput with the checkpoint after the window counted in the window's
 *       time, so that a setting that merely postpones writes past a short window earns nothing;
 *   <li>{@code latency} is the average latency of all business transactions, in ms.
 * </ul>
 */
final class Objectives {
  /** The optimizer's metric names: the goals' labels. */
  private static final String TPS = Goal.TPS.label();

  private static final String LATENCY = Goal.LATENCY.label();

  private Objectives() {}

  static Objective of(Goal goal) {
    return goal == Goal.TPS ? Objective.maximize(TPS) : Objective.minimize(LATENCY);
  }

  static double value(TrialResult t, Goal objective) {
    return objective == Goal.TPS
        ? t.workload().tpsWithCheckpoint()
        : t.workload().overall().avgMs();
  }

  /**
   * The latency rows and noise line of a workload command that prints {@code {"value": N}} alone:
   * its trials record 0 ms, which as an observation is a latency every configuration shares, so the
   * latency picks came out as the defaults and read "no change found".
   */
  static final String NOT_REPORTED = "not measured: the workload reports no latency";

  /**
   * Whether the session's workload reports no {@code goal}: some trial succeeded, and none has a
   * figure for it.
   */
  static boolean unreported(List<TrialResult> trials, Goal goal) {
    boolean anyOk = false;
    for (TrialResult t : trials) {
      if (t.isOk() && t.workload() != null) {
        anyOk = true;
        if (value(t, goal) > 0) {
          return false;
        }
      }
    }
    return anyOk;
  }

  static Outcome outcome(TrialResult t) {
    if (!t.isOk()) {
      return failed(t);
    }
    return Outcome.ok(Map.of(TPS, value(t, Goal.TPS), LATENCY, value(t, Goal.LATENCY)));
  }

  /**
   * The trial's outcome with drift-corrected values and their standard errors: what the optimizer
   * learns from, so that a trial measured while the machine was slow is not taken for a slow
   * configuration, and one short noisy window counts for less than a replicated one.
   */
  static Outcome correctedOutcome(TrialResult t, Measured measured) {
    if (!t.isOk()) {
      return failed(t);
    }
    Outcome out =
        Outcome.ok(
            Map.of(
                TPS,
                measured.tpsRanking().getOrDefault(t.trial(), measured.tps().corrected(t)),
                LATENCY,
                measured
                    .latencyRanking()
                    .getOrDefault(t.trial(), measured.latency().corrected(t))));
    var tpsSe = measured.tps().standardError(t);
    if (tpsSe.isPresent()) {
      out = out.withStandardError(TPS, tpsSe.get());
    }
    var latencySe = measured.latency().standardError(t);
    if (latencySe.isPresent()) {
      out = out.withStandardError(LATENCY, latencySe.get());
    }
    return out;
  }

  /**
   * The measurements of both objectives over the same trials, and per objective the trials of
   * unstable configurations with the value they are ranked by instead of their own.
   */
  record Measured(
      SessionMeasurements tps,
      SessionMeasurements latency,
      Map<Integer, Double> tpsRanking,
      Map<Integer, Double> latencyRanking) {
    static Measured of(List<TrialResult> trials) {
      SessionMeasurements tps = new SessionMeasurements(trials, Goal.TPS);
      SessionMeasurements latency = new SessionMeasurements(trials, Goal.LATENCY);
      return new Measured(
          tps,
          latency,
          unstableRanking(trials, tps, true),
          unstableRanking(trials, latency, false));
    }
  }

  /**
   * Issue 16's "a configuration whose runs disagree widely is marked unstable and ranked by its
   * worst runs", for the optimizer: every run of a configuration whose drift-corrected runs vary
   * beyond the other configurations' noise counts as its worst run, so neither the model's best
   * posterior mean nor its proposals chase a configuration that is fast only on average. Trial
   * number to the value it is ranked by; stable configurations are absent. ({@link
   * SessionMeasurements#unstable} says which are unstable.)
   */
  static Map<Integer, Double> unstableRanking(
      List<TrialResult> trials, SessionMeasurements m, boolean higherIsBetter) {
    Map<Map<String, String>, List<Double>> byConfiguration = new LinkedHashMap<>();
    Map<Map<String, String>, List<Integer>> trialsOf = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      if (t.isOk() && m.corrected(t) > 0) {
        Map<String, String> key = new TreeMap<>(t.settings());
        byConfiguration.computeIfAbsent(key, k -> new ArrayList<>()).add(m.corrected(t));
        trialsOf.computeIfAbsent(key, k -> new ArrayList<>()).add(t.trial());
      }
    }
    Map<Integer, Double> out = new HashMap<>();
    byConfiguration.forEach(
        (settings, runs) -> {
          if (m.unstable(settings)) {
            double worst =
                higherIsBetter
                    ? runs.stream().mapToDouble(Double::doubleValue).min().orElseThrow()
                    : runs.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            trialsOf.get(settings).forEach(t -> out.put(t, worst));
          }
        });
    return out;
  }

  /**
   * As {@link #within(SearchSpace, List, Predicate)}, with drift-corrected values and standard
   * errors ({@link #correctedOutcome}).
   */
  static List<Observation> correctedWithin(
      SearchSpace space, List<TrialResult> trials, Predicate<TrialResult> keep) {
    Measured measured = Measured.of(trials);
    List<Observation> out = new ArrayList<>();
    for (TrialResult t : trials) {
      if (!t.informative() || !keep.test(t) || !space.names().containsAll(t.config().keySet())) {
        continue;
      }
      Configuration c = Configuration.normalized(t.config(), space);
      out.add(new Observation(c, correctedOutcome(t, measured)));
    }
    return out;
  }

  /**
   * The trials whose configuration lies within {@code space} (every set knob is one of its knobs),
   * as observations; {@code keep} chooses the phases.
   */
  static List<Observation> within(
      SearchSpace space, List<TrialResult> trials, Predicate<TrialResult> keep) {
    List<Observation> out = new ArrayList<>();
    for (TrialResult t : trials) {
      if (!t.informative() || !keep.test(t) || !space.names().containsAll(t.config().keySet())) {
        continue;
      }
      Configuration c = Configuration.normalized(t.config(), space);
      out.add(new Observation(c, outcome(t)));
    }
    return out;
  }

  /** A failed trial as the optimizer sees it: infeasible, the status leading the reason. */
  private static Outcome failed(TrialResult t) {
    return Outcome.failed(t.status() + (t.reason().isEmpty() ? "" : ": " + t.reason()));
  }
}
