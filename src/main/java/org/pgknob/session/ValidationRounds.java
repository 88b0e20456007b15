package org.pgknob.session;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.measure.LoneDrop;
import org.pgknob.measure.PairedRatio;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Validation that goes on until it decides (randomized multiple interleaved trials, after Abedi and
 * Brecht): rounds in which the defaults and every candidate run once each, in an order drawn anew
 * for every round, until each candidate's paired ratio against the defaults excludes 1 or is
 * narrower than the target, or the rounds the budget allows are spent: the plan's, or as many as
 * the time left holds when the budget has a wall time ({@link ValidationTime}).
 *
 * <p>Why rounds and paired ratios: the runs of one round are adjacent, so the machine's slow drift
 * hardly differs between a candidate's run and the defaults' run of the same round, and a random
 * order keeps any effect of a position (right after the defaults, last in the round) from siding
 * with one candidate. Why the order comes from (seed, round) and the stop from the logged trials
 * alone: a session resumed after kill -9 then proposes exactly the run the uninterrupted one would.
 *
 * <p>A candidate whose configuration is the defaults is left out (never measured against itself);
 * the rounds then hold the defaults and the other candidates.
 *
 * <p>A round in which one run dropped is left out of every ratio and, when the budget still holds a
 * round, run again ({@link #droppedRounds}): TUNA's repeated measurement of an outlying run. Why:
 * now and then a run loses 30% to something of its own (a neighbour's burst, the virtual disk), and
 * with a handful of rounds two such runs of one configuration made an equal configuration look 25%
 * worse beyond its interval in the noise benchmark's A/A sessions (2 false claims in 30). A run is
 * a drop only when it lies far below both the other runs of its round (measured at the same time,
 * so not the machine's drift) and its own configuration's other runs (so not a configuration truly
 * that much slower); at most one round in three is left out, so a configuration that keeps dropping
 * still shows it.
 */
final class ValidationRounds {
  private static final Pattern LABEL = Pattern.compile("validation round (\\d+)/(\\d+) (.+)");

  private final SessionPlan plan;
  private final SessionPlan.Validating rule;
  private final List<String> candidates;

  /**
   * @param plan a plan that validates until decided ({@link SessionPlan#validating()} set)
   * @param sameAsDefaults candidates whose configuration turned out to be the defaults
   */
  ValidationRounds(SessionPlan plan, Set<String> sameAsDefaults) {
    this.plan = plan;
    this.rule = plan.validating();
    this.candidates =
        plan.validations().stream()
            .map(SessionPlan.Validation::name)
            .filter(n -> !sameAsDefaults.contains(n))
            .toList();
  }

  /** The runs of one round: the defaults and each candidate. */
  int perRound() {
    return 1 + candidates.size();
  }

  /** The candidates the rounds measure, in the plan's order. */
  List<String> candidates() {
    return candidates;
  }

  /**
   * The run order of round {@code round}: the defaults' run ({@link SessionPlan#BASELINE}) and each
   * candidate's, shuffled with a generator seeded from (seed, round). A round whose draw repeats
   * the round before is drawn again, so that no two rounds in a row run in the same order.
   */
  static List<String> order(long seed, int round, List<String> candidates) {
    List<String> previous = round > 1 ? shuffled(seed, round - 1, candidates, null) : null;
    return shuffled(seed, round, candidates, previous);
  }

  private static List<String> shuffled(
      long seed, int round, List<String> candidates, List<String> avoid) {
    List<String> out = new ArrayList<>();
    out.add(SessionPlan.BASELINE);
    out.addAll(candidates);
    // SplittableRandom mixes (seed, round) well: java.util.Random's first draws from nearby seeds
    // are alike, and sessions' seeds are small numbers.
    Random random = new Random(new SplittableRandom(seed * 1_000_003L + round).nextLong());
    Collections.shuffle(out, random);
    for (int tries = 0; avoid != null && out.size() > 1 && out.equals(avoid) && tries < 100; ) {
      Collections.shuffle(out, random);
      tries++;
    }
    return out;
  }

  /**
   * The validation run that follows {@code before} (the whole session so far), numbered {@code
   * trial}, or empty when validation is over: decided after at least the minimum rounds, or every
   * round the plan allows run.
   */
  Optional<Step> next(int trial, List<TrialResult> before) {
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    long done = before.stream().filter(ValidationRounds::isValidation).count();
    int perRound = perRound();
    int round = (int) (done / perRound) + 1;
    int position = (int) (done % perRound);
    // validation's runs are the session's last: the round under way is the last `position` runs
    int dropped = droppedRounds(before.subList(0, before.size() - position)).size();
    if (position == 0 && round > 1) {
      int completed = round - 1;
      int kept = completed - dropped;
      if (kept >= plan.validationPairs()
          || (kept >= rule.minRounds() && decided(before))
          || (completed >= ValidationTime.plannedRounds(plan)
              && !ValidationTime.nextRoundFits(plan, before, perRound))
          || done + perRound > mostRuns()) {
        return Optional.empty();
      }
    }
    String subject = order(rule.seed(), round, candidates).get(position);
    Track track =
        SessionPlan.BASELINE.equals(subject)
            ? Track.RELOAD
            : plan.validation(subject).map(SessionPlan.Validation::track).orElse(Track.RESTART);
    return Optional.of(
        new Step(
            trial,
            Phase.VALIDATION,
            track,
            subject,
            null,
            "",
            round,
            // a round run again for one left out extends the count, as far as the runs allow
            Math.min(plan.validationPairs() + dropped, (int) (mostRuns() / perRound)),
            SessionPlan.BASELINE.equals(subject) ? "A" : "B"));
  }

  /**
   * The most validation runs the plan holds: its rounds of the defaults and every candidate. Rounds
   * run again for a drop must fit in it (they can when a candidate was left out as the defaults); a
   * resumed session checks its trials against the plan's slots.
   */
  private long mostRuns() {
    return (long) plan.validationPairs() * (1 + plan.validations().size());
  }

  /**
   * The rounds left out of every ratio because a run in them dropped, by round number: a run whose
   * TPS lies more than {@link LoneDrop#THRESHOLD} (about 18%) below the median of its round's other
   * runs and below the median of its configuration's other runs logged by the end of its round.
   * Judged on TPS, which every workload reports (a drop in it is a rise in latency for a fixed
   * number of users). At most one round in three so far is left out, the earliest; each round is
   * judged on the trials logged by its end, so a later trial never changes an earlier decision and
   * a resumed session decides the same.
   */
  static Set<Integer> droppedRounds(List<TrialResult> trials) {
    Set<Integer> dropped = new LinkedHashSet<>();
    int seen = 0;
    for (Map.Entry<Integer, List<Integer>> round : roundsLogged(trials).entrySet()) {
      seen++;
      if (dropped.size() < (seen + 2) / 3 && drop(round.getValue(), trials).isPresent()) {
        dropped.add(round.getKey());
      }
    }
    return dropped;
  }

  /**
   * "validation round 2 is left out of the ratios; another round follows: pgtune's run (1180 TPS)
   * fell more than 18% below both the other runs of its round and its configuration's other runs",
   * when the last logged trial ends a round that {@link #droppedRounds} leaves out.
   */
  Optional<String> droppedNote(List<TrialResult> logged) {
    long done = logged.stream().filter(ValidationRounds::isValidation).count();
    if (done == 0 || done % perRound() != 0) {
      return Optional.empty();
    }
    Map<Integer, List<Integer>> rounds = roundsLogged(logged);
    Map.Entry<Integer, List<Integer>> last = null;
    for (Map.Entry<Integer, List<Integer>> e : rounds.entrySet()) {
      last = e;
    }
    if (last == null || !droppedRounds(logged).contains(last.getKey())) {
      return Optional.empty();
    }
    TrialResult fell = drop(last.getValue(), logged).orElseThrow();
    Matcher m = LABEL.matcher(fell.label());
    String who = m.matches() ? m.group(3) : fell.label();
    boolean again = next(logged.size() + 1, logged).isPresent();
    return Optional.of(
        String.format(
            Locale.ROOT,
            "  validation round %d is left out of the ratios%s: %s run (%.0f TPS) fell more than"
                + " %.0f%% below both the other runs of its round and its configuration's other"
                + " runs",
            last.getKey(),
            again ? "; another round follows" : "",
            SessionPlan.BASELINE.equals(who) ? "the defaults'" : who + "'s",
            fell.workload().tps(),
            100 * -Math.expm1(-LoneDrop.THRESHOLD)));
  }

  /** Validation's runs by round number, as indexes into {@code trials}, in the order logged. */
  private static Map<Integer, List<Integer>> roundsLogged(List<TrialResult> trials) {
    Map<Integer, List<Integer>> byRound = new LinkedHashMap<>();
    for (int i = 0; i < trials.size(); i++) {
      TrialResult t = trials.get(i);
      Matcher m = LABEL.matcher(t.label());
      if (isValidation(t) && m.matches()) {
        byRound.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new ArrayList<>()).add(i);
      }
    }
    return byRound;
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

  /**
   * True when every candidate's ratio against the defaults on the plan's objective is decided: its
   * interval excludes 1 or is within ± the target. A candidate with fewer than 2 successful pairs
   * is not decided.
   */
  boolean decided(List<TrialResult> trials) {
    var noise = ValidationNoise.of(trials, rule.objective());
    Set<Integer> dropped = droppedRounds(trials);
    for (String name : candidates) {
      Optional<PairedRatio> r =
          ratio(pairsAgainst(SessionPlan.BASELINE, name, trials, dropped), noise);
      if (r.isEmpty() || !decided(r.get(), rule.targetHalfWidth())) {
        return false;
      }
    }
    return true;
  }

  /** The stopping rule on one ratio: its interval excludes 1 or is at most ± target wide. */
  static boolean decided(PairedRatio ratio, double targetHalfWidth) {
    return ratio.excludesOne() || ratio.halfWidth() <= Math.log1p(targetHalfWidth);
  }

  private static Optional<PairedRatio> ratio(
      List<double[]> pairs, org.pgknob.measure.RunNoise noise) {
    return pairs.size() < 2 ? Optional.empty() : Optional.of(ValidationStats.paired(pairs, noise));
  }

  private List<double[]> pairsAgainst(
      String a, String b, List<TrialResult> trials, Set<Integer> dropped) {
    List<double[]> out = new ArrayList<>();
    for (TrialResult[] p : runsByRound(a, b, trials, dropped)) {
      if (p[0] != null && p[1] != null && p[0].isOk() && p[1].isOk()) {
        out.add(ValidationStats.pair(p[0], p[1], rule.objective()));
      }
    }
    return out;
  }

  /**
   * Per validation round, the run of {@code a} and the run of {@code b} in that round (either may
   * be null when it did not run), read from the trials' labels: "validation round 2/6 pgtune". The
   * defaults' run is named {@link SessionPlan#BASELINE}. Rounds left out for a drop ({@link
   * #droppedRounds}) are not among them.
   */
  static List<TrialResult[]> runsByRound(String a, String b, List<TrialResult> trials) {
    return runsByRound(a, b, trials, droppedRounds(trials));
  }

  /** {@link #runsByRound(String, String, List)} with the dropped rounds already known. */
  static List<TrialResult[]> runsByRound(
      String a, String b, List<TrialResult> trials, Set<Integer> dropped) {
    Map<Integer, TrialResult[]> byRound = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      Matcher m = LABEL.matcher(t.label());
      if (!isValidation(t) || !m.matches() || dropped.contains(Integer.parseInt(m.group(1)))) {
        continue;
      }
      String subject = m.group(3);
      int side = subject.equals(a) ? 0 : subject.equals(b) ? 1 : -1;
      if (side >= 0) {
        byRound.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new TrialResult[2])[side] = t;
      }
    }
    return new ArrayList<>(byRound.values());
  }

  /**
   * "up to 6 rounds of 3 runs (defaults, restart/tps, pgtune) in random order, ...", and for a
   * budget with a wall time that the time left may hold more ({@link ValidationTime}).
   */
  String describe() {
    int perRound = 1 + candidates.size();
    List<String> names = new ArrayList<>();
    names.add("defaults");
    names.addAll(candidates);
    return String.format(
            Locale.ROOT,
            "up to %d rounds of %d runs (%s) in a random order each, stopping once every %s ratio"
                + " against the defaults excludes 1 or is within +-%.0f%% (at least %d rounds)",
            plan.validationPairs(),
            perRound,
            String.join(", ", names),
            rule.objective(),
            100 * rule.targetHalfWidth(),
            rule.minRounds())
        + (rule.wallTime() == null
            ? ""
            : "; more rounds if the time left holds them when validation starts");
  }

  private static boolean isValidation(TrialResult t) {
    return t.phase() == Phase.VALIDATION;
  }
}
