package org.pgknob.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.pgknob.PgknobException;
import org.pgknob.optimize.SweepPlan;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The fixed sequence of trials a session runs, decided once at the start and stored in
 * session.json: baseline runs, sweep values, Bayesian iterations per track, validation pairs. Trial
 * number t is always {@code steps().get(t - 1)}, whatever its outcome (a rejected or crashed trial
 * is logged too), so the trials already in trials.jsonl say exactly which step comes next.
 *
 * <p>Resume is deterministic: the plan comes from session.json, not from a new computation; the
 * configurations of sweeps and validation are in the plan or follow from the logged trials (the
 * best per track and objective); and a Bayesian optimizer built with the session's seed and given
 * the logged trials in order (suggest for each of its own logged iterations, then observe) proposes
 * the same next configuration as the session would have without the stop.
 *
 * @param baselineRuns how often the defaults run at the start (at least 3)
 * @param sweeps one-at-a-time sweeps, in order
 * @param bayes Bayesian iterations per track, in order (reload-only first)
 * @param validations configurations validated against the baseline, in order
 * @param validationPairs validation rounds: each runs the baseline once (A) and every candidate
 *     once (B), so each candidate gets one interleaved pair per round
 * @param racing how Bayesian slots are shared with reference runs and races; null in plans made
 *     before pgknob raced (their Bayesian slots all hold proposals)
 * @param validating when validation stops early and how its rounds are ordered ({@link
 *     ValidationRounds}); {@code validationPairs} is then the most rounds it may take. Null in a
 *     comparison and in plans made before: every round runs, in a rotated order
 */
public record SessionPlan(
    int baselineRuns,
    List<SweepKnob> sweeps,
    List<BayesTrack> bayes,
    List<Validation> validations,
    int validationPairs,
    Racing racing,
    Validating validating) {

  /**
   * Validation until it decides (see {@link ValidationRounds}).
   *
   * @param objective the ratio the stopping rule reads: tps or latency
   * @param targetHalfWidth a ratio whose 95% interval is within this fraction either side (0.03:
   *     +-3%) is decided even when it includes 1
   * @param minRounds the fewest rounds before validation may stop
   * @param seed the session's seed: with the round number, it draws each round's order
   * @param wallTime the budget's wall time, whose time left re-counts the rounds when validation
   *     starts ({@link ValidationTime}); null for a budget of trials only and in plans made before
   */
  public record Validating(
      Goal objective, double targetHalfWidth, int minRounds, long seed, WallTime wallTime) {
    /** The default target: +-3%. */
    public static final double DEFAULT_TARGET = 0.03;

    /** Validation whose rounds are the plan's, whatever the time left. */
    public Validating(Goal objective, double targetHalfWidth, int minRounds, long seed) {
      this(objective, targetHalfWidth, minRounds, seed, null);
    }

    public Validating {
      if (!(targetHalfWidth > 0 && targetHalfWidth < 1) || minRounds < MIN_VALIDATION_ROUNDS) {
        throw new IllegalArgumentException(
            "need 0 < target < 1 and at least "
                + MIN_VALIDATION_ROUNDS
                + " rounds, but got target="
                + targetHalfWidth
                + ", minRounds="
                + minRounds);
      }
    }
  }

  /**
   * What a budget with a wall time lets validation take: the time the search left, in rounds that
   * each fit it ({@link ValidationTime}).
   *
   * @param budgetSeconds the budget's wall time
   * @param mostTrials the budget's trials when it gives them too (40,2h), else null: the rounds
   *     never take the session past them
   * @param plannedRounds the rounds the plan reserved from the estimated trial length: validation
   *     runs at least these, and a round beyond them starts only if it fits the time left
   * @param windowSeconds the measured window of the trials still to run, at which the logged
   *     trials' lengths are counted ({@link Budget#observedTrialSeconds(List, double)}) under
   *     --duration auto; null for a window given, or in a plan from before it was kept: the trials
   *     then count as they ran
   */
  public record WallTime(
      double budgetSeconds, Integer mostTrials, int plannedRounds, Double windowSeconds) {
    /** Trials counted as they ran, whatever their window. */
    public WallTime(double budgetSeconds, Integer mostTrials, int plannedRounds) {
      this(budgetSeconds, mostTrials, plannedRounds, null);
    }
  }

  /** A plan whose validation runs every round (a comparison, or a plan made before). */
  public SessionPlan(
      int baselineRuns,
      List<SweepKnob> sweeps,
      List<BayesTrack> bayes,
      List<Validation> validations,
      int validationPairs,
      Racing racing) {
    this(baselineRuns, sweeps, bayes, validations, validationPairs, racing, null);
  }

  /**
   * Reference runs and races within the Bayesian phase (see {@link MeasuredSlots}).
   *
   * @param objective the objective races are decided on: tps or latency
   * @param errorRate the chance that a challenger no better than the incumbent wins its race
   * @param maxPairs the most pairs one race takes
   * @param shortestReferenceInterval the fewest trials between runs of the defaults
   * @param longestReferenceInterval the most trials between runs of the defaults
   */
  public record Racing(
      Goal objective,
      double errorRate,
      int maxPairs,
      int shortestReferenceInterval,
      int longestReferenceInterval) {
    /**
     * What a new session uses: a 5% error rate, races of at most 4 pairs, references every 4-10.
     */
    public static Racing defaults(Goal objective) {
      return new Racing(objective, 0.05, 4, 4, 10);
    }
  }

  /** A plan without reference runs or races in its Bayesian phase. */
  public SessionPlan(
      int baselineRuns,
      List<SweepKnob> sweeps,
      List<BayesTrack> bayes,
      List<Validation> validations,
      int validationPairs) {
    this(baselineRuns, sweeps, bayes, validations, validationPairs, null, null);
  }

  /** The subject of a validation round's baseline run. */
  public static final String BASELINE = "baseline";

  /** A knob swept over its values, each one trial; values in the knob's unit. */
  public record SweepKnob(String knob, Track track, String unit, List<Object> values) {
    public SweepKnob {
      unit = unit == null ? "" : unit;
      values = List.copyOf(values);
    }
  }

  /** Bayesian iterations of one track. */
  public record BayesTrack(Track track, int iterations) {}

  /**
   * A configuration validated against the baseline: pgtune, reload/tps, restart/latency, ...; or,
   * in a comparison, one given up front (config:a.conf, restart/tps of an earlier session) with its
   * settings, so that a resumed comparison measures exactly the same.
   *
   * @param settings the settings to measure as PostgreSQL takes them, or empty when the session
   *     computes them (the PGTune-style configuration, the best of a track)
   * @param inPlaceOf the pick of the plan whose runs this one takes, added when the search was over
   *     because that pick is left out, the defaults or a twin ({@link ValidationStandIns}); null
   *     for the plan's own
   */
  public record Validation(
      String name,
      Track track,
      Map<String, String> settings,
      @JsonInclude(JsonInclude.Include.NON_NULL) String inPlaceOf) {
    public Validation {
      settings = settings == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(settings));
    }

    public Validation(String name, Track track, Map<String, String> settings) {
      this(name, track, settings, null);
    }

    public Validation(String name, Track track) {
      this(name, track, Map.of());
    }
  }

  /**
   * The fewest validation rounds a plan may have: two give an interval, if a wide one. A tuning
   * session validates with {@link ValidationStats#MIN_VALIDATION_PAIRS}; a comparison of given
   * configurations may make do with two.
   */
  public static final int MIN_VALIDATION_ROUNDS = 2;

  public SessionPlan {
    sweeps = sweeps == null ? List.of() : List.copyOf(sweeps);
    bayes = bayes == null ? List.of() : List.copyOf(bayes);
    validations = validations == null ? List.of() : List.copyOf(validations);
    if (baselineRuns < Budget.MIN_BASELINE_RUNS) {
      throw new IllegalArgumentException(
          "a plan needs at least "
              + Budget.MIN_BASELINE_RUNS
              + " baseline runs, but got "
              + baselineRuns);
    }
    if (!validations.isEmpty() && validationPairs < MIN_VALIDATION_ROUNDS) {
      throw new IllegalArgumentException(
          "validation needs at least "
              + MIN_VALIDATION_ROUNDS
              + " pairs, but got "
              + validationPairs);
    }
  }

  /**
   * Every planned trial slot, in order; trial t is element t - 1. A Bayesian slot may be taken by a
   * reference or race run when the plan races: {@link #next} says which.
   */
  public List<Step> steps() {
    List<Step> out = new ArrayList<>();
    for (int k = 1; k <= baselineRuns; k++) {
      out.add(
          new Step(
              out.size() + 1,
              Phase.BASELINE,
              Track.RELOAD,
              "defaults",
              null,
              "",
              k,
              baselineRuns,
              ""));
    }
    for (SweepKnob s : sweeps) {
      for (int j = 0; j < s.values().size(); j++) {
        out.add(
            new Step(
                out.size() + 1,
                Phase.SWEEP,
                s.track(),
                s.knob(),
                s.values().get(j),
                s.unit(),
                j + 1,
                s.values().size(),
                ""));
      }
    }
    for (BayesTrack b : bayes) {
      for (int t = 1; t <= b.iterations(); t++) {
        out.add(
            new Step(
                out.size() + 1,
                Phase.BAYES,
                b.track(),
                b.track().label(),
                null,
                "",
                t,
                b.iterations(),
                ""));
      }
    }
    if (validating != null) {
      // Every round the plan allows, each in its own order; ValidationRounds decides which run.
      List<String> names = validations.stream().map(Validation::name).toList();
      for (int p = 1; !validations.isEmpty() && p <= validationPairs; p++) {
        for (String subject : ValidationRounds.order(validating.seed(), p, names)) {
          boolean baseline = BASELINE.equals(subject);
          out.add(
              new Step(
                  out.size() + 1,
                  Phase.VALIDATION,
                  baseline ? Track.RELOAD : validation(subject).orElseThrow().track(),
                  subject,
                  null,
                  "",
                  p,
                  validationPairs,
                  baseline ? "A" : "B"));
        }
      }
      return out;
    }
    // Validation in rounds: each round runs the defaults once (A), then every candidate (B), in
    // an order rotated from round to round so no candidate always runs right after the baseline.
    for (int p = 1; !validations.isEmpty() && p <= validationPairs; p++) {
      out.add(
          new Step(
              out.size() + 1,
              Phase.VALIDATION,
              Track.RELOAD,
              BASELINE,
              null,
              "",
              p,
              validationPairs,
              "A"));
      for (int j = 0; j < validations.size(); j++) {
        Validation v = validations.get((j + p - 1) % validations.size());
        out.add(
            new Step(
                out.size() + 1,
                Phase.VALIDATION,
                v.track(),
                v.name(),
                null,
                "",
                p,
                validationPairs,
                "B"));
      }
    }
    return out;
  }

  /**
   * The plan's sweeps as the {@link org.pgknob.optimize.Sweep} optimizer runs them: these knobs in
   * this order, each on exactly its planned values.
   *
   * @throws IllegalStateException when the plan sweeps nothing
   */
  public SweepPlan sweepPlan() {
    if (sweeps.isEmpty()) {
      throw new IllegalStateException("the plan sweeps no knob");
    }
    Map<String, List<Object>> grids = new java.util.LinkedHashMap<>();
    for (SweepKnob s : sweeps) {
      grids.put(s.knob(), s.values());
    }
    return SweepPlan.of(grids);
  }

  /**
   * The same plan with at most {@code rounds} validation rounds: re-counted from the time left when
   * validation starts ({@link ValidationTime}).
   */
  public SessionPlan withValidationRounds(int rounds) {
    return new SessionPlan(baselineRuns, sweeps, bayes, validations, rounds, racing, validating);
  }

  /**
   * The same plan validating {@code added} too, after its own validations: picks that take the runs
   * of picks left out ({@link ValidationStandIns}).
   */
  public SessionPlan withStandIns(List<Validation> added) {
    List<Validation> all = new ArrayList<>(validations);
    all.addAll(added);
    return new SessionPlan(baselineRuns, sweeps, bayes, all, validationPairs, racing, validating);
  }

  /**
   * The validations the plan's budget paid for: its own, not the stand-ins that took the runs of
   * picks left out. Why: the budget's trials hold rounds of these; a stand-in uses runs the plan
   * had, and never adds to them.
   */
  public int plannedValidations() {
    return (int) validations.stream().filter(v -> v.inPlaceOf() == null).count();
  }

  /** The validation named {@code name}, if the plan has one. */
  public Optional<Validation> validation(String name) {
    return validations.stream().filter(v -> v.name().equals(name)).findFirst();
  }

  /**
   * The number of trials the plan runs: with validation until decided, the most it may run (it
   * stops earlier once decided). A stand-in's runs are those of the pick it stands in for, counted
   * once.
   */
  public int totalTrials() {
    int standIns = validations.size() - plannedValidations();
    return steps().size() - (validating == null ? 0 : standIns * validationPairs);
  }

  /**
   * The most trials the session may still run once the candidates in {@code leftOut} (the defaults'
   * own settings) are known: every slot of the plan but their validation runs.
   */
  public int mostTrials(Set<String> leftOut) {
    long left = validations.stream().filter(v -> leftOut.contains(v.name())).count();
    return steps().size() - (validating == null ? 0 : (int) left * validationPairs);
  }

  /** The trials before validation: baseline, sweeps and Bayesian slots. */
  public int searchTrials() {
    return (int) steps().stream().filter(s -> s.phase() != Phase.VALIDATION).count();
  }

  /** {@link #next(List, Set)} when no candidate is the defaults. */
  public Optional<Step> next(List<TrialResult> logged) {
    return next(logged, Set.of());
  }

  /**
   * The step after the logged trials, or empty when the plan is done.
   *
   * @param sameAsDefaults validated candidates whose configuration is the defaults: left out of
   *     validation until decided (needed once the logged trials reach validation)
   * @throws PgknobException when the logged trials do not follow this plan
   */
  public Optional<Step> next(List<TrialResult> logged, Set<String> sameAsDefaults) {
    List<Step> slots = steps();
    int search = searchTrials();
    ValidationRounds rounds =
        validating == null ? null : new ValidationRounds(this, sameAsDefaults);
    if (logged.size() > slots.size()) {
      throw new PgknobException(
          "trials.jsonl holds " + logged.size() + " trials but the session planned " + slots.size(),
          "the folder was changed by hand; start a new session");
    }
    for (int i = 0; i <= logged.size(); i++) {
      List<TrialResult> before = logged.subList(0, i);
      Optional<Step> planned;
      if (rounds != null && i >= search) {
        planned = rounds.next(i + 1, before);
      } else {
        planned = i < slots.size() ? Optional.of(filled(slots.get(i), before)) : Optional.empty();
      }
      if (i == logged.size()) {
        return planned;
      }
      TrialResult t = logged.get(i);
      Step s = planned.orElse(null);
      if (s == null
          || t.trial() != s.trial()
          || s.phase() != t.phase()
          || !s.label().equals(t.label())) {
        throw new PgknobException(
            "trials.jsonl does not follow the session's plan at trial "
                + (i + 1)
                + ": logged #"
                + t.trial()
                + " '"
                + t.label()
                + "', planned '"
                + (s == null ? "nothing (the plan was done)" : s.label())
                + "'",
            "the folder was changed by hand or by another pgknob version; start a new session");
      }
    }
    throw new IllegalStateException("unreachable");
  }

  /** What runs in a slot after {@code before}: the slot's own step, or a reference or race run. */
  Step filled(Step slot, List<TrialResult> before) {
    if (racing == null || slot.phase() != Phase.BAYES) {
      return slot;
    }
    return new MeasuredSlots(this).fill(slot, before);
  }
}
