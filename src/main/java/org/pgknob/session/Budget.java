package org.pgknob.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.PgknobException;
import org.pgknob.runs.Goal;
import org.pgknob.runs.ResultKey;
import org.pgknob.runs.Track;
import org.pgknob.trial.TrialResult;

/**
 * What a session may spend: a number of trials, a wall time, or both (whichever runs out first).
 *
 * <p>Syntax of {@code --budget}: {@code 40} or {@code 40 trials}; {@code 2h}, {@code 90m}, {@code
 * 45min}, {@code 1h30m}, {@code 600s}; both joined by a comma: {@code 40,2h}. A wall time becomes a
 * number of trials through the estimated length of one trial ({@link #estimateTrialSeconds}).
 *
 * <p>How a budget of T trials is shared ({@link #apportion}):
 *
 * <ol>
 *   <li>baseline: 3 runs of the defaults, 5 when T is 60 or more (a better noise estimate pays off
 *       in longer sessions);
 *   <li>validation: rounds of one run of the defaults and one of each validated configuration, in
 *       the order restart/objective, pgtune, reload/objective, restart/other objective,
 *       reload/other objective. Each track's pick on the objective and the PGTune-style
 *       configuration are always validated (users compare against PGTune-style first): validation
 *       gets 40% of T, but never less than {@code minRounds} rounds of those, and takes as many
 *       further configurations as leave at least {@code minRounds} rounds in its share. The rounds
 *       that share allows are the most validation runs; it stops earlier once decided ({@link
 *       ValidationRounds}). When that share holds {@value #SPARE_FROM_ROUNDS} rounds or more, one
 *       round more, taken from the search: a spare for the round run again after a drop ({@link
 *       ValidationDrops}), run as an ordinary round when no run dropped and validation is still
 *       undecided;
 *   <li>sweeps: 30% of what remains, when that is at least 3 trials, else none;
 *   <li>Bayesian iterations: the rest, split evenly between the tracks, the restart track getting
 *       the odd one (it searches the larger space).
 * </ol>
 *
 * @param trials the number of trials, or null when only time limits the session
 * @param wallTime the wall time, or null when only trials do
 */
public record Budget(Integer trials, Duration wallTime) {
  /** The fewest baseline runs: two give a spread, three make it worth something. */
  public static final int MIN_BASELINE_RUNS = 3;

  static final double VALIDATION_SHARE = 0.4;
  static final double SWEEP_SHARE = 0.3;
  static final int MIN_SWEEP_TRIALS = 3;
  static final int LONG_SESSION_TRIALS = 60;

  /**
   * The fewest rounds validation's share must hold before the plan adds a spare round. Why a spare
   * at all: a plan's rounds are all used when its ratios stay undecided, so a round with a drop
   * could never be run again, and within the share a spare would only rename its last round. Why
   * only from 6 rounds (90 trials and more with two tracks): there the spare takes about an eighth
   * of the search's 49 or more trials, while under the noise benchmark's noise about 40% of the
   * ratios lose a pair to a drop at 6 rounds ({@code bench/validation-drop-sim.py}); a 40-trial
   * plan's 3 rounds of 5 would give it a quarter of its 22 search trials, which the restart track's
   * race needs (README, noise bench). A judgement, not a measurement: the search's loss at 90
   * trials was not measured.
   */
  static final int SPARE_FROM_ROUNDS = 6;

  private static final Pattern TRIALS = Pattern.compile("(\\d+)(\\s*trials?)?");
  private static final Pattern TIME =
      Pattern.compile("(?:(\\d+)\\s*h)?\\s*(?:(\\d+)\\s*m(?:in)?)?\\s*(?:(\\d+)\\s*s)?");

  public Budget {
    if (trials == null && wallTime == null) {
      throw new IllegalArgumentException("a budget needs trials, a wall time or both");
    }
  }

  /**
   * Parses {@code --budget}.
   *
   * @throws PgknobException naming the accepted forms when the text is not one of them
   */
  public static Budget parse(String text) {
    Integer trials = null;
    Duration wall = null;
    String[] parts = text == null ? new String[] {""} : text.trim().split("\\s*,\\s*", -1);
    if (parts.length > 2) {
      throw notUnderstood(text);
    }
    for (String part : parts) {
      String p = part.trim().toLowerCase(Locale.ROOT);
      Matcher t = TRIALS.matcher(p);
      Matcher w = TIME.matcher(p);
      if (t.matches() && trials == null) {
        trials = positive(number(t.group(1), text), text);
      } else if (!p.isEmpty() && !p.matches("\\d+") && w.matches() && wall == null) {
        long seconds;
        try {
          seconds =
              Math.addExact(
                  Math.addExact(
                      Math.multiplyExact(number(w.group(1), text), 3600),
                      Math.multiplyExact(number(w.group(2), text), 60)),
                  number(w.group(3), text));
        } catch (ArithmeticException e) {
          throw tooLarge(text);
        }
        wall = Duration.ofSeconds(positive(seconds, text));
      } else {
        throw notUnderstood(text);
      }
    }
    return new Budget(trials, wall);
  }

  private static int positive(long value, String text) {
    if (value > Integer.MAX_VALUE) {
      throw tooLarge(text);
    }
    if (value <= 0) {
      throw new PgknobException(
          "budget '" + text + "' must be more than zero", "give e.g. --budget 40 or --budget 2h");
    }
    return (int) value;
  }

  /** The digits of one part of the budget (0 when absent); more than a long holds is too large. */
  private static long number(String digits, String text) {
    if (digits == null) {
      return 0;
    }
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw tooLarge(text); // the patterns admit digits only, so only the size can be wrong
    }
  }

  private static PgknobException tooLarge(String text) {
    return new PgknobException(
        "budget '" + text + "' is too large: at most " + Integer.MAX_VALUE + " trials or seconds",
        "give e.g. --budget 40, --budget 2h or --budget 40,2h");
  }

  private static PgknobException notUnderstood(String text) {
    return new PgknobException(
        "budget '" + text + "' is not understood",
        "give trials and/or wall time: 40, '40 trials', 2h, 90m, 1h30m, or both as 40,2h");
  }

  /**
   * The fewest trials a session of one track can do anything useful with: {@link
   * #minimumTrials(int, int)}.
   */
  public static int minimumTrials(int validationRounds) {
    return minimumTrials(validationRounds, 1);
  }

  /**
   * The fewest trials a session can do anything useful with: baseline, one trial, and {@code
   * validationRounds} rounds of the defaults, each track's pick and the PGTune-style configuration
   * (users compare against it first).
   */
  public static int minimumTrials(int validationRounds, int tracks) {
    return MIN_BASELINE_RUNS + 1 + validationRounds * (2 + tracks);
  }

  /**
   * The number of trials this budget allows when one trial takes about {@code trialSeconds}.
   *
   * @throws PgknobException when that is less than {@link #minimumTrials}, saying the minimum
   */
  public int trialsFor(double trialSeconds, int validationPairs) {
    return trialsFor(trialSeconds, validationPairs, 1);
  }

  /**
   * {@link #trialsFor(double, int)} for a session of {@code tracks} tracks, each with a pick to
   * validate.
   */
  public int trialsFor(double trialSeconds, int validationPairs, int tracks) {
    int byTime =
        wallTime == null
            ? Integer.MAX_VALUE
            : (int) Math.floor(wallTime.toSeconds() / trialSeconds);
    int total = trialsFitting(trialSeconds);
    int minimum = minimumTrials(validationPairs, tracks);
    if (total >= minimum) {
      return total;
    }
    String needs =
        String.format(
            Locale.ROOT,
            "a session needs at least %d (%d baseline runs, 1 trial, %d validation rounds of the"
                + " defaults, %s and PGTune-style: the fewest that can decide a comparison)",
            minimum,
            MIN_BASELINE_RUNS,
            validationPairs,
            tracks == 1 ? "the pick" : "each track's pick");
    if (byTime < (trials == null ? Integer.MAX_VALUE : trials)) {
      Duration least = Duration.ofSeconds((long) Math.ceil(minimum * trialSeconds / 60.0) * 60);
      throw new PgknobException(
          String.format(
              Locale.ROOT,
              "budget %s fits about %d trials of %.0f s; %s, about %s",
              describe(wallTime),
              byTime,
              trialSeconds,
              needs,
              describe(least)),
          "give --budget " + describe(least) + " or more, or shorter trials (--duration)");
    }
    throw new PgknobException(
        "budget of " + trials + " trials is too small: " + needs,
        "give --budget " + minimum + " or more");
  }

  /**
   * The trials this budget allows when one takes about {@code trialSeconds}, however few: the
   * smaller of its trials and what its wall time holds.
   */
  public int trialsFitting(double trialSeconds) {
    int byTime =
        wallTime == null
            ? Integer.MAX_VALUE
            : (int) Math.floor(wallTime.toSeconds() / trialSeconds);
    return Math.min(trials == null ? Integer.MAX_VALUE : trials, byTime);
  }

  /**
   * The smallest budget of the same kind as this one (trials, or a wall time in whole minutes) that
   * fits {@code minimumTrials} trials of {@code trialSeconds}, as --budget takes it.
   */
  public String smallestFitting(int minimumTrials, double trialSeconds) {
    if (wallTime == null) {
      return Integer.toString(minimumTrials);
    }
    return describe(Duration.ofSeconds((long) Math.ceil(minimumTrials * trialSeconds / 60.0) * 60));
  }

  /** The budget as people write it: "40 trials", "2h", "40 trials, 1h30m". */
  public String describe() {
    List<String> parts = new ArrayList<>();
    if (trials != null) {
      parts.add(trials + " trials");
    }
    if (wallTime != null) {
      parts.add(describe(wallTime));
    }
    return String.join(", ", parts);
  }

  static String describe(Duration d) {
    long h = d.toHours();
    long m = d.toMinutesPart();
    long s = d.toSecondsPart();
    StringBuilder b = new StringBuilder();
    if (h > 0) {
      b.append(h).append('h');
    }
    if (m > 0) {
      b.append(m).append('m');
    }
    if (s > 0 || b.length() == 0) {
      b.append(s).append('s');
    }
    return b.toString();
  }

  /**
   * The estimated seconds of one trial before any has run: reset the database from its pristine
   * copy (about 150 MB/s plus a start), apply (a reload, or a restart), ramp-up, window, and the
   * checkpoint after the window.
   */
  public static double estimateTrialSeconds(
      long databaseBytes, int rampupSeconds, int windowSeconds, boolean restart) {
    double resetSeconds = 2 + databaseBytes / 150e6;
    double applySeconds = restart ? 5 : 1;
    double checkpointSeconds = 2 + databaseBytes / 500e6;
    return resetSeconds + applySeconds + rampupSeconds + windowSeconds + checkpointSeconds;
  }

  /** The mean measured total seconds of logged trials that ran, once there are some. */
  public static OptionalDouble observedTrialSeconds(List<TrialResult> trials) {
    return trials.stream()
        .map(t -> t.timingsSeconds().get("total"))
        .filter(s -> s != null && s > 0)
        .mapToDouble(Double::doubleValue)
        .average();
  }

  /**
   * The mean measured total seconds of logged trials that ran, each counted as if its measured
   * window had lasted {@code windowSeconds}: what a trial still to run takes.
   *
   * <p>Why: with --duration auto the baselines run 15-s windows and the rest the chosen window.
   * Counted as they ran, three 21-s baselines made a 12-minute session's 40-s trials look like 26
   * s: validation announced 11 rounds where 7 fitted, the console said 22 min left, and a round
   * beyond the plan's could start that the time left did not hold.
   */
  public static OptionalDouble observedTrialSeconds(
      List<TrialResult> trials, double windowSeconds) {
    return trials.stream()
        .filter(t -> t.timingsSeconds().get("total") != null && t.timingsSeconds().get("total") > 0)
        .mapToDouble(
            t -> {
              double total = t.timingsSeconds().get("total");
              // a trial that measured no window (it failed first), or this one, took what it took
              double ran = t.workload() == null ? 0 : t.workload().windowSeconds();
              return !(ran > 0) || ran == windowSeconds
                  ? total
                  : Math.max(0, total - ran) + windowSeconds;
            })
        .average();
  }

  /**
   * How a session of {@code totalTrials} shares them (the rule is in the class comment).
   *
   * @param totalTrials from {@link #trialsFor}
   * @param tracks the tracks in the order they run, e.g. [reload, restart]
   * @param objective the objective the Bayesian phase optimizes: tps or latency
   * @param withPgtune whether the PGTune-style configuration is validated too
   * @param validationPairs the fewest validation rounds (at least 3)
   */
  public static Shares apportion(
      int totalTrials,
      List<Track> tracks,
      Goal objective,
      boolean withPgtune,
      int validationPairs) {
    return apportion(
        totalTrials,
        tracks,
        objective,
        withPgtune,
        validationPairs,
        totalTrials >= LONG_SESSION_TRIALS ? 5 : MIN_BASELINE_RUNS);
  }

  /**
   * {@link #apportion(int, List, Goal, boolean, int)} with the baseline runs given: a plan remade
   * after its baselines ran (--duration auto) keeps the runs it made.
   */
  public static Shares apportion(
      int totalTrials,
      List<Track> tracks,
      Goal objective,
      boolean withPgtune,
      int validationPairs,
      int baseline) {
    int minimum = minimumTrials(validationPairs, tracks.size()) + baseline - MIN_BASELINE_RUNS;
    if (totalTrials < minimum) {
      throw new IllegalArgumentException(
          totalTrials + " trials are fewer than the minimum " + minimum);
    }
    if (tracks.isEmpty()) {
      throw new IllegalArgumentException("a session needs at least one track");
    }
    List<SessionPlan.Validation> candidates = new ArrayList<>();
    Goal other = objective.other();
    Track first = tracks.get(tracks.size() - 1);
    candidates.add(validation(first, objective));
    if (withPgtune) {
      candidates.add(new SessionPlan.Validation("pgtune", Track.RESTART));
    }
    for (int i = tracks.size() - 2; i >= 0; i--) {
      candidates.add(validation(tracks.get(i), objective));
    }
    for (int i = tracks.size() - 1; i >= 0; i--) {
      candidates.add(validation(tracks.get(i), other));
    }
    // Rounds of (defaults + every candidate): k candidates in r rounds cost r x (1 + k) trials.
    // Always validated: each track's pick on the objective, and PGTune-style.
    int mandatory = tracks.size() + (withPgtune ? 1 : 0);
    int share =
        Math.max(
            (int) Math.floor(VALIDATION_SHARE * totalTrials), validationPairs * (1 + mandatory));
    share = Math.min(share, totalTrials - baseline - 1);
    int validations = mandatory;
    while (validations < candidates.size() && validationPairs * (2 + validations) <= share) {
      validations++;
    }
    int rounds = Math.max(validationPairs, share / (1 + validations));
    if ((int) Math.floor(VALIDATION_SHARE * totalTrials) / (1 + validations) >= SPARE_FROM_ROUNDS) {
      rounds++; // the spare: see SPARE_FROM_ROUNDS
    }
    int search = totalTrials - baseline - rounds * (1 + validations);
    int sweeps = (int) Math.floor(SWEEP_SHARE * search);
    if (sweeps < MIN_SWEEP_TRIALS) {
      sweeps = 0;
    }
    int bayes = search - sweeps;
    Map<Track, Integer> perTrack = new LinkedHashMap<>();
    for (int i = 0; i < tracks.size(); i++) {
      perTrack.put(tracks.get(i), bayes / tracks.size());
    }
    Track last = tracks.get(tracks.size() - 1);
    perTrack.merge(last, bayes % tracks.size(), Integer::sum);
    return new Shares(baseline, sweeps, perTrack, candidates.subList(0, validations), rounds);
  }

  /** The validation of a track's optimum on an objective: {@code restart/tps}. */
  private static SessionPlan.Validation validation(Track track, Goal objective) {
    return new SessionPlan.Validation(new ResultKey(track, objective).name(), track);
  }

  /**
   * A budget's shares.
   *
   * @param baselineRuns runs of the defaults
   * @param sweepTrials trials for one-at-a-time sweeps (at most)
   * @param bayesIterations per track, in run order
   * @param validations what is validated, in order
   * @param validationPairs the most validation rounds: each runs the defaults and every validation
   */
  public record Shares(
      int baselineRuns,
      int sweepTrials,
      Map<Track, Integer> bayesIterations,
      List<SessionPlan.Validation> validations,
      int validationPairs) {
    public Shares {
      bayesIterations = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(bayesIterations));
      validations = List.copyOf(validations);
    }

    /** Total trials of these shares. */
    public int totalTrials() {
      return baselineRuns
          + sweepTrials
          + bayesIterations.values().stream().mapToInt(Integer::intValue).sum()
          + (validations.isEmpty() ? 0 : validationPairs * (1 + validations.size()));
    }

    /**
     * The session's plan with these sweeps; sweep trials left unused go to the last track's
     * Bayesian iterations.
     *
     * @throws IllegalArgumentException when the sweeps take more than {@link #sweepTrials}
     */
    public SessionPlan plan(List<SessionPlan.SweepKnob> sweeps) {
      int used = sweeps.stream().mapToInt(s -> s.values().size()).sum();
      if (used > sweepTrials) {
        throw new IllegalArgumentException(
            "the sweeps take " + used + " trials but their share is " + sweepTrials);
      }
      List<SessionPlan.BayesTrack> bayes = new ArrayList<>();
      List<Track> tracks = new ArrayList<>(bayesIterations.keySet());
      for (Track track : tracks) {
        int n = bayesIterations.get(track);
        if (track == tracks.get(tracks.size() - 1)) {
          n += sweepTrials - used;
        }
        if (n > 0) {
          bayes.add(new SessionPlan.BayesTrack(track, n));
        }
      }
      return new SessionPlan(baselineRuns, sweeps, bayes, validations, validationPairs);
    }

    /**
     * {@link #plan(List)} with reference runs and races on {@code objective} in its Bayesian slots.
     */
    public SessionPlan racingPlan(List<SessionPlan.SweepKnob> sweeps, Goal objective) {
      return racingPlan(sweeps, objective, null);
    }

    /**
     * {@link #racingPlan(List, String)} whose validation stops once decided ({@code validating}),
     * or runs every round (null).
     */
    public SessionPlan racingPlan(
        List<SessionPlan.SweepKnob> sweeps, Goal objective, SessionPlan.Validating validating) {
      SessionPlan p = plan(sweeps);
      return new SessionPlan(
          p.baselineRuns(),
          p.sweeps(),
          p.bayes(),
          p.validations(),
          p.validationPairs(),
          SessionPlan.Racing.defaults(objective),
          validating);
    }
  }
}
