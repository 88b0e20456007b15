package org.pgknob.session;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.pgknob.measure.LoneDrop;
import org.pgknob.measure.PairedRatio;
import org.pgknob.runs.Track;
import org.pgknob.server.ForeignLoad;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Validation that goes on until it decides (randomized multiple interleaved trials, after Abedi and
 * Brecht): rounds in which the defaults and every candidate run once each, in an order drawn anew
 * for every round, until each candidate's paired ratio against the defaults excludes 1 at the
 * interim looks' stricter confidence ({@link #INTERIM_CONFIDENCE}) or is narrower than the target,
 * or the rounds the budget allows are spent: the plan's, or as many as the time left holds when the
 * budget has a wall time ({@link ValidationTime}).
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
 * <p>A run that dropped is left out with the pairs that hold it ({@link ValidationDrops}): a
 * candidate's drop costs that candidate's pairs of its round, the defaults' drop every ratio to the
 * defaults that round; while some ratio has fewer pairs than the plan's rounds and the plan still
 * holds a round, another round runs: TUNA's repeated measurement of an outlying run. Why: now and
 * then a run loses 30% to something of its own (a neighbour's burst, the virtual disk), and with a
 * handful of rounds two such runs of one configuration made an equal configuration look 25% worse
 * beyond its interval in the noise benchmark's A/A sessions (2 false claims in 30). Why only the
 * pairs that hold the run: the other candidates' runs of that round are sound, and a 40-trial plan
 * has no round to spare, so leaving out the whole round put half the rows on 2 pairs.
 */
final class ValidationRounds {
  private final SessionPlan plan;
  private final SessionPlan.Validating rule;
  private final List<String> candidates;

  /**
   * @param plan a plan that validates until decided ({@link SessionPlan#validating()} set), or one
   *     of fixed rounds, for {@link #droppedNote} alone
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
    int lost =
        ValidationDrops.of(before.subList(0, before.size() - position)).mostPairsLost(candidates);
    if (position == 0 && round > 1) {
      int completed = round - 1;
      // the ratio with the fewest pairs left decides whether a round is run again
      int kept = completed - lost;
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
            Math.min(plan.validationPairs() + lost, (int) (mostRuns() / perRound)),
            SessionPlan.BASELINE.equals(subject) ? "A" : "B"));
  }

  /**
   * The most validation runs the plan holds: its rounds of the defaults and every candidate it
   * planned (a stand-in only takes a left-out pick's runs). Rounds run again for a drop must fit in
   * it (they can when a candidate was left out as the defaults); a resumed session checks its
   * trials against the plan's slots.
   */
  private long mostRuns() {
    return (long) plan.validationPairs() * (1 + plan.plannedValidations());
  }

  /**
   * "validation round 2: pgtune's run (1180 TPS) is left out with the pairs that hold it, the
   * round's other pairs kept; another round follows: it fell more than 18% below both the other
   * runs of its round and its configuration's other runs" (or "it ran while other processes used
   * 0.9 of 2 cores during the window"), when the last logged trial ends a round with a run that
   * dropped ({@link ValidationDrops}).
   */
  Optional<String> droppedNote(List<TrialResult> logged) {
    long done = logged.stream().filter(ValidationRounds::isValidation).count();
    if (done == 0 || done % perRound() != 0) {
      return Optional.empty();
    }
    int last = -1;
    for (int round : ValidationDrops.roundsLogged(logged).keySet()) {
      last = round;
    }
    List<TrialResult> fell = ValidationDrops.of(logged).in(last);
    if (fell.isEmpty()) {
      return Optional.empty();
    }
    // fixed rounds (no stopping rule: pgknob compare) are never run again for a drop
    String again =
        rule != null && next(logged.size() + 1, logged).isPresent()
            ? "; another round follows"
            : "";
    List<String> lines = new ArrayList<>();
    for (TrialResult run : fell) {
      lines.add(droppedLine(last, run, again));
    }
    return Optional.of(String.join(System.lineSeparator(), lines));
  }

  /** One run's line of {@link #droppedNote}. */
  private static String droppedLine(int round, TrialResult run, String again) {
    String who = ValidationDrops.subject(run);
    // A disturbed run is left out for the load ForeignLoad names, else it fell.
    String why =
        ForeignLoad.note(run.resources())
            .map(load -> " ran while " + load)
            .orElseGet(
                () ->
                    String.format(
                        Locale.ROOT,
                        " fell more than %.0f%% below both the other runs of its round and its"
                            + " configuration's other runs",
                        100 * -Math.expm1(-LoneDrop.THRESHOLD)));
    String tps = String.format(Locale.ROOT, "%.0f TPS", run.workload().tps());
    if (SessionPlan.BASELINE.equals(who)) {
      return "  validation round "
          + round
          + " is left out of every ratio to the defaults"
          + again
          + ": the defaults' run ("
          + tps
          + ")"
          + why;
    }
    return "  validation round "
        + round
        + ": "
        + who
        + "'s run ("
        + tps
        + ") is left out with the pairs that hold it, the round's other pairs kept"
        + again
        + ": it"
        + why;
  }

  /**
   * True when every candidate's ratio against the defaults on the plan's objective is decided
   * before the last round: its interval at {@link #INTERIM_CONFIDENCE} excludes 1, or its 95%
   * interval is within ± the target. A candidate with fewer than 2 successful pairs is not decided.
   */
  boolean decided(List<TrialResult> trials) {
    ValidationDrops dropped = ValidationDrops.of(trials);
    for (String name : candidates) {
      List<double[]> pairs = pairsAgainst(SessionPlan.BASELINE, name, trials, dropped);
      if (pairs.size() < 2
          || !decided(
              ValidationNoise.ratio(pairs, trials, rule.objective()),
              ValidationNoise.ratio(pairs, trials, rule.objective(), INTERIM_CONFIDENCE),
              rule.targetHalfWidth())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The confidence an interval must have to stop validation early on a difference (Haybittle and
   * Peto's boundary of group-sequential trials: p below 0.001 at an interim look). Why: a rule that
   * looks after every round and stops as soon as the 95% interval excludes 1 claims a difference
   * between equal configurations far more often than 1 in 20: in simulated A/A validations of one
   * candidate (7% noise), 10% over up to 6 rounds and 16% over up to 12, against 4-5% with this
   * boundary. A large gain still stops early; the reported interval stays the 95% one.
   */
  static final double INTERIM_CONFIDENCE = 0.999;

  /**
   * The stopping rule on one ratio: its {@code interim} interval ({@link #INTERIM_CONFIDENCE})
   * excludes 1, or its {@code reported} (95%) interval is at most ± target wide.
   */
  static boolean decided(PairedRatio reported, PairedRatio interim, double targetHalfWidth) {
    return interim.excludesOne() || reported.halfWidth() <= Math.log1p(targetHalfWidth);
  }

  private List<double[]> pairsAgainst(
      String a, String b, List<TrialResult> trials, ValidationDrops dropped) {
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
   * defaults' run is named {@link SessionPlan#BASELINE}. A round in which the run of {@code a} or
   * of {@code b} dropped ({@link ValidationDrops}) is not among them; other candidates' drops do
   * not touch this pair.
   */
  static List<TrialResult[]> runsByRound(String a, String b, List<TrialResult> trials) {
    return runsByRound(a, b, trials, ValidationDrops.of(trials));
  }

  /** {@link #runsByRound(String, String, List)} with the drops already known. */
  static List<TrialResult[]> runsByRound(
      String a, String b, List<TrialResult> trials, ValidationDrops dropped) {
    Map<Integer, TrialResult[]> byRound = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      int round = ValidationDrops.round(t);
      if (round < 0 || dropped.leavesOut(round, a, b)) {
        continue;
      }
      String subject = ValidationDrops.subject(t);
      int side = subject.equals(a) ? 0 : subject.equals(b) ? 1 : -1;
      if (side >= 0) {
        byRound.computeIfAbsent(round, k -> new TrialResult[2])[side] = t;
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
                + " against the defaults excludes 1 at %s%% or is within +-%.0f%% (at least %d"
                + " rounds)",
            plan.validationPairs(),
            perRound,
            String.join(", ", names),
            rule.objective(),
            new java.math.BigDecimal(100 * INTERIM_CONFIDENCE)
                .round(new java.math.MathContext(3))
                .stripTrailingZeros()
                .toPlainString(),
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
