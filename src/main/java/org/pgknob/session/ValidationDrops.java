package org.pgknob.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.measure.LoneDrop;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The validation runs that dropped, by round, and the pairs they leave out: a pair is left out when
 * it holds a dropped run, so a candidate's drop costs its own pairs of that round (its ratio to the
 * defaults, and to PGTune-style or the picks' to it when that is the candidate) while the round's
 * other candidates keep theirs; the defaults' drop costs every ratio to the defaults that round
 * (the picks' pairs with PGTune-style, which do not hold it, keep the round).
 *
 * <p>A run drops when its TPS lies more than {@link LoneDrop#THRESHOLD} (about 18%) below the
 * median of its round's other runs (measured at the same time, so not the machine's drift) and
 * below the median of its configuration's other runs logged by the end of its round (so not a
 * configuration truly that much slower): TUNA's repeated measurement of an outlying run. Judged on
 * TPS, which every workload reports (a drop in it is a rise in latency for a fixed number of
 * users). At most one round in three so far, the earliest, so that a configuration that keeps
 * dropping still shows it. A run that other processes disturbed ({@link
 * org.pgknob.server.ResourceSummary#disturbedByOtherProcesses()}: a build, another benchmark, the
 * server's other clients) is left out the same way, whatever its TPS, when another run of its round
 * was quiet, in any number of rounds: the load is outside the configuration, so leaving its runs
 * out hides nothing of it, and what the load cost a run varies with how much of the window it
 * covered; on a machine busy through the whole round, its runs were alike and all count. Every
 * disturbed run of such a round is left out (beside a cron job's query, a round's defaults and
 * reload/tps were both disturbed, and the one kept, 1541 TPS against 2672, made the pick read 0.79x
 * PGTune-style's); of the runs that fell, one a round at most (the first in run order), and none in
 * a round with a disturbed run. Each round is judged on the trials logged by its end, so a later
 * trial never changes an earlier decision and a resumed session decides the same.
 */
final class ValidationDrops {
  private static final Pattern LABEL = Pattern.compile("validation round (\\d+)/(\\d+) (.+)");

  /** Round number to the runs of it that dropped, in round order. */
  private final Map<Integer, List<TrialResult>> byRound;

  private ValidationDrops(Map<Integer, List<TrialResult>> byRound) {
    this.byRound = byRound;
  }

  /** The drops among {@code trials}' validation runs (see the class comment). */
  static ValidationDrops of(List<TrialResult> trials) {
    Map<Integer, List<TrialResult>> dropped = new LinkedHashMap<>();
    int seen = 0;
    int fell = 0;
    for (Map.Entry<Integer, List<Integer>> round : roundsLogged(trials).entrySet()) {
      seen++;
      List<TrialResult> runs = disturbedRuns(round.getValue(), trials);
      if (runs.isEmpty() && fell < (seen + 2) / 3) {
        runs = drop(round.getValue(), trials).map(List::of).orElse(List.of());
        fell += runs.size();
      }
      if (!runs.isEmpty()) {
        dropped.put(round.getKey(), runs);
      }
    }
    return new ValidationDrops(dropped);
  }

  /** The rounds with a run left out, in round order. */
  Collection<Integer> rounds() {
    return Collections.unmodifiableSet(byRound.keySet());
  }

  /** The runs of {@code round} that dropped, in run order; empty when none did. */
  List<TrialResult> in(int round) {
    return byRound.getOrDefault(round, List.of());
  }

  /** Whether the pair of {@code a}'s and {@code b}'s runs in {@code round} holds a dropped run. */
  boolean leavesOut(int round, String a, String b) {
    for (TrialResult run : in(round)) {
      String who = subject(run);
      if (who.equals(a) || who.equals(b)) {
        return true;
      }
    }
    return false;
  }

  /** How many of {@code candidate}'s pairs with the defaults the drops leave out. */
  int pairsLost(String candidate) {
    int lost = 0;
    for (int round : byRound.keySet()) {
      lost += leavesOut(round, SessionPlan.BASELINE, candidate) ? 1 : 0;
    }
    return lost;
  }

  /** The most pairs with the defaults the drops leave out of any of {@code candidates}' ratios. */
  int mostPairsLost(List<String> candidates) {
    int most = 0;
    for (String c : candidates) {
      most = Math.max(most, pairsLost(c));
    }
    return most;
  }

  /**
   * "pgtune's run of round 2, the defaults' run of round 3 (all of its ratios to the defaults)".
   */
  String describe() {
    List<String> parts = new ArrayList<>();
    byRound.forEach((round, runs) -> runs.forEach(run -> parts.add(describe(round, run))));
    return String.join(", ", parts);
  }

  /** "pgtune's run of round 2 (disturbed by other processes)". */
  private static String describe(int round, TrialResult run) {
    String who = subject(run);
    String load = disturbed(run) ? ", disturbed by other processes" : "";
    return SessionPlan.BASELINE.equals(who)
        ? "the defaults' run of round " + round + " (all of its ratios to the defaults" + load + ")"
        : who + "'s run of round " + round + (load.isEmpty() ? "" : " (" + load.substring(2) + ")");
  }

  /** The subject of a validation run from its label ("pgtune", or the defaults' "baseline"). */
  static String subject(TrialResult run) {
    Matcher m = LABEL.matcher(run.label());
    return m.matches() ? m.group(3) : run.label();
  }

  /** The round number of a validation run from its label, or -1 when it is none. */
  static int round(TrialResult run) {
    Matcher m = LABEL.matcher(run.label());
    return run.phase() == Phase.VALIDATION && m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }

  /** Validation's runs by round number, as indexes into {@code trials}, in the order logged. */
  static Map<Integer, List<Integer>> roundsLogged(List<TrialResult> trials) {
    Map<Integer, List<Integer>> byRound = new LinkedHashMap<>();
    for (int i = 0; i < trials.size(); i++) {
      int round = round(trials.get(i));
      if (round > 0) {
        byRound.computeIfAbsent(round, k -> new ArrayList<>()).add(i);
      }
    }
    return byRound;
  }

  /** Whether other processes disturbed {@code run}, so that it is left out for that. */
  static boolean disturbed(TrialResult run) {
    return run.resources().disturbedByOtherProcesses(); // never null: UNAVAILABLE at worst
  }

  /**
   * The runs of a round (indexes into {@code trials}) that other processes disturbed, when another
   * of its runs was quiet; none otherwise.
   */
  private static List<TrialResult> disturbedRuns(List<Integer> round, List<TrialResult> trials) {
    List<TrialResult> runs = round.stream().map(trials::get).filter(TrialResult::isOk).toList();
    if (runs.stream().allMatch(ValidationDrops::disturbed)) {
      return List.of();
    }
    return runs.stream().filter(ValidationDrops::disturbed).toList();
  }

  /** The first run of a round (indexes into {@code trials}) that dropped, judged at its end. */
  private static Optional<TrialResult> drop(List<Integer> round, List<TrialResult> trials) {
    List<TrialResult> history = trials.subList(0, round.get(round.size() - 1) + 1);
    for (int i : round) {
      TrialResult run = trials.get(i);
      if (!run.isOk()) {
        continue;
      }
      double[] roundOthers =
          round.stream()
              .filter(j -> j != i)
              .map(trials::get)
              .filter(TrialResult::isOk)
              .mapToDouble(t -> t.workload().tps())
              .filter(v -> v > 0)
              .toArray();
      double[] ownOthers =
          history.stream()
              .filter(t -> t != run && t.isOk() && t.settings().equals(run.settings()))
              .mapToDouble(t -> t.workload().tps())
              .filter(v -> v > 0)
              .toArray();
      double tps = run.workload().tps();
      if (LoneDrop.beyond(tps, roundOthers, true) && LoneDrop.beyond(tps, ownOthers, true)) {
        return Optional.of(run);
      }
    }
    return Optional.empty();
  }
}
