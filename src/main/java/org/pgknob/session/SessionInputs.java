package org.pgknob.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;
import org.pgknob.optimize.SurrogateKind;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.workload.WorkloadSpec;
import org.pgknob.workload.Workloads;

/**
 * What the user asked a tuning session for. Stored in session.json as a map, so a resumed session
 * runs with exactly the same inputs.
 *
 * @param workload the workload and its own options
 * @param rampupSeconds warm-up before each measured window
 * @param windowSeconds the measured window of each trial
 * @param budget the --budget text
 * @param tracks reload, restart, in the order they run
 * @param objective tps or latency: what the Bayesian phase optimizes
 * @param spaceFile the search-space file, or null for the bundled one
 * @param rulesFile the safety-rules file, or null for the bundled one
 * @param allowDurabilityTradeoff whether synchronous_commit=off may be proposed
 * @param ramBytes --ram in bytes, or 0 when not given
 * @param seed the session's random seed
 * @param surrogate the model of the Bayesian phase
 * @param apply what stays on the server at the end: the originals, or the best restart/objective
 *     configuration
 * @param pgtune --storage, --cpus and --connections for the PGTune-style configuration
 * @param validationTarget --validation-target: validation stops once each ratio is within this
 *     fraction either side (0.03 for +-3%) or excludes 1
 * @param autoWindow --duration auto and what it chose, or null for a window given; with it, {@code
 *     windowSeconds} is the window trials use now (the baselines', then the chosen one)
 */
public record SessionInputs(
    WorkloadSpec workload,
    int rampupSeconds,
    int windowSeconds,
    String budget,
    List<Track> tracks,
    Goal objective,
    String spaceFile,
    String rulesFile,
    boolean allowDurabilityTradeoff,
    long ramBytes,
    long seed,
    SurrogateKind surrogate,
    ApplyAtEnd apply,
    PgTuneOptions pgtune,
    double validationTarget,
    AutoWindow autoWindow) {
  /** tune's ramp-up when --rampup is not given; a verdict's next steps leave it out. */
  public static final int DEFAULT_RAMPUP_SECONDS = 5;

  /** tune's measured window when --duration is not given; a verdict's next steps leave it out. */
  public static final int DEFAULT_WINDOW_SECONDS = 15;

  /** Both tracks, in the order they run: reload-only first. */
  public static final List<Track> TRACKS = List.of(Track.RELOAD, Track.RESTART);

  /** Inputs with the default validation target (+-3%). */
  public SessionInputs(
      WorkloadSpec workload,
      int rampupSeconds,
      int windowSeconds,
      String budget,
      List<Track> tracks,
      Goal objective,
      String spaceFile,
      String rulesFile,
      boolean allowDurabilityTradeoff,
      long ramBytes,
      long seed,
      org.pgknob.optimize.SurrogateKind surrogate,
      ApplyAtEnd apply,
      PgTuneOptions pgtune) {
    this(
        workload,
        rampupSeconds,
        windowSeconds,
        budget,
        tracks,
        objective,
        spaceFile,
        rulesFile,
        allowDurabilityTradeoff,
        ramBytes,
        seed,
        surrogate,
        apply,
        pgtune,
        SessionPlan.Validating.DEFAULT_TARGET,
        null);
  }

  public SessionInputs {
    pgtune = pgtune == null ? PgTuneOptions.MEASURED : pgtune;
    if (autoWindow != null) {
      windowSeconds = autoWindow.windowSeconds();
    }
    if (!(validationTarget >= 0.005 && validationTarget <= 0.5)) {
      throw new PgknobException(
          "--validation-target must be between 0.5% and 50%, but got "
              + Math.round(validationTarget * 1000) / 10.0
              + "%",
          "give e.g. --validation-target 3%");
    }
    tracks = List.copyOf(new java.util.LinkedHashSet<>(tracks)); // --tracks reload,reload is one
    if (tracks.isEmpty()) {
      throw new PgknobException("--tracks names no track", "give reload, restart or both");
    }
    if (tracks.size() == 2 && tracks.get(0) != Track.RELOAD) {
      tracks = TRACKS; // reload-only first: it causes no downtime, and restart warm-starts from it
    }
    if (objective == null) {
      throw new PgknobException("no objective given", "--objective takes tps or latency");
    }
    if (workload == null) {
      throw new PgknobException("no workload given", "give --workload");
    }
    if (windowSeconds < 1 || rampupSeconds < 0) {
      throw new PgknobException(
          "--duration must be at least 1 s and --rampup at least 0 s, but got "
              + windowSeconds
              + " s and "
              + rampupSeconds
              + " s",
          "give positive durations, e.g. --rampup 10s --duration 30s");
    }
    surrogate = surrogate == null ? SurrogateKind.GP : surrogate;
  }

  /**
   * The trials the budget allows by the estimate made before any trial ran (the one the session
   * plans with), so that a budget too small is refused before anything is created or changed.
   *
   * @throws PgknobException when it is less than a session's minimum, saying what the minimum is
   */
  /**
   * The window at which logged trials' lengths are counted for the trials still to run: the chosen
   * one with --duration auto, whose baselines ran a shorter one; null for a window given, whose
   * trials count as they ran (a command that times itself may answer in less than its window).
   */
  Double countedWindowSeconds() {
    return autoWindow == null ? null : (double) windowSeconds;
  }

  /** The logged trials' mean length for the trials still to run ({@link #countedWindowSeconds}). */
  java.util.OptionalDouble observedTrialSeconds(List<org.pgknob.trial.TrialResult> trials) {
    Double window = countedWindowSeconds();
    return window == null
        ? Budget.observedTrialSeconds(trials)
        : Budget.observedTrialSeconds(trials, window);
  }

  public int trialsAllowed() {
    if (autoWindow != null && !autoWindow.chosen()) {
      requireRoomForAutoWindow();
    }
    return Budget.parse(budget)
        .trialsFor(
            Budget.estimateTrialSeconds(
                workload.databaseBytes(), rampupSeconds, windowSeconds, true),
            ValidationStats.MIN_VALIDATION_PAIRS,
            tracks.size());
  }

  /**
   * --duration auto may keep the baselines' window, so the budget must hold a session at that
   * window: else no window could decide even one comparison.
   *
   * @throws PgknobException naming the smallest budget that would do
   */
  private void requireRoomForAutoWindow() {
    Budget b = Budget.parse(budget);
    double trialSeconds =
        Budget.estimateTrialSeconds(
            workload.databaseBytes(), rampupSeconds, autoWindow.baselineSeconds(), true);
    int minimum = Budget.minimumTrials(ValidationStats.MIN_VALIDATION_PAIRS, tracks.size());
    int fits = b.trialsFitting(trialSeconds);
    if (fits >= minimum) {
      return;
    }
    throw new PgknobException(
        String.format(
            java.util.Locale.ROOT,
            "--duration auto starts with %d s windows (trials of about %.0f s) and chooses a"
                + " window only after the baselines, but the budget %s allows %d trials there;"
                + " deciding a single comparison takes at least %d (%d baseline runs, 1 trial, %d"
                + " validation rounds of the defaults, %s and PGTune-style)",
            autoWindow.baselineSeconds(),
            trialSeconds,
            b.describe(),
            fits,
            minimum,
            Budget.MIN_BASELINE_RUNS,
            ValidationStats.MIN_VALIDATION_PAIRS,
            tracks.size() == 1 ? "the pick" : "each track's pick"),
        "give --budget " + b.smallestFitting(minimum, trialSeconds) + " or more");
  }

  /** These inputs once --duration auto chose {@code seconds} for the trials after the baselines. */
  SessionInputs withChosenWindow(int seconds, String reason) {
    return new SessionInputs(
        workload,
        rampupSeconds,
        seconds,
        budget,
        tracks,
        objective,
        spaceFile,
        rulesFile,
        allowDurabilityTradeoff,
        ramBytes,
        seed,
        surrogate,
        apply,
        pgtune,
        validationTarget,
        new AutoWindow(autoWindow.baselineSeconds(), seconds, reason));
  }

  /** The inputs as session.json keeps them. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", workload.toMap());
    m.put("rampupSeconds", rampupSeconds);
    m.put("windowSeconds", windowSeconds);
    m.put("budget", budget);
    m.put("tracks", tracks.stream().map(Track::label).toList());
    m.put("objective", objective.label());
    m.put("spaceFile", spaceFile == null ? "" : spaceFile);
    m.put("rulesFile", rulesFile == null ? "" : rulesFile);
    m.put("allowDurabilityTradeoff", allowDurabilityTradeoff);
    m.put("ramBytes", ramBytes);
    m.put("seed", seed);
    m.put("surrogate", surrogate.label());
    m.put("applyBest", apply == ApplyAtEnd.BEST); // the JSON shape of older sessions
    m.put("pgtune", pgtune.toMap());
    m.put("validationTarget", validationTarget);
    if (autoWindow != null) {
      m.put("duration", "auto");
      m.put("autoWindow", autoWindow.toMap());
    }
    return m;
  }

  /** The inputs back from session.json, also as sessions before workload specs wrote it. */
  @SuppressWarnings("unchecked")
  public static SessionInputs fromMap(Map<String, Object> m) {
    return new SessionInputs(
        workloadOf(m),
        ((Number) m.get("rampupSeconds")).intValue(),
        ((Number) m.get("windowSeconds")).intValue(),
        (String) m.get("budget"),
        ((List<String>) m.get("tracks")).stream().map(SessionInputs::track).toList(),
        goal((String) m.get("objective")),
        emptyToNull((String) m.get("spaceFile")),
        emptyToNull((String) m.get("rulesFile")),
        (Boolean) m.get("allowDurabilityTradeoff"),
        ((Number) m.get("ramBytes")).longValue(),
        ((Number) m.get("seed")).longValue(),
        SurrogateKind.of((String) m.get("surrogate")),
        Boolean.TRUE.equals(m.get("applyBest")) ? ApplyAtEnd.BEST : ApplyAtEnd.NONE,
        PgTuneOptions.fromMap(m.get("pgtune")),
        m.get("validationTarget") instanceof Number n
            ? n.doubleValue()
            : SessionPlan.Validating.DEFAULT_TARGET,
        AutoWindow.fromMap(m.get("autoWindow")));
  }

  /**
   * The "workload" map; sessions recorded before it kept TPROC-C's options at the top level
   * (warehouses, virtualUsers, allWarehouses) and a command in "workloadCommand".
   */
  @SuppressWarnings("unchecked")
  private static WorkloadSpec workloadOf(Map<String, Object> m) {
    if (m.get("workload") instanceof Map<?, ?> w) {
      return Workloads.fromMap((Map<String, Object>) w);
    }
    String command = emptyToNull((String) m.get("workloadCommand"));
    return command != null ? Workloads.spec("command", m) : Workloads.spec("tprocc", m);
  }

  /** The workload as the summary and report show it. */
  public Map<String, Object> workloadDescription() {
    Map<String, Object> m = new LinkedHashMap<>(workload.toMap());
    m.put("rampupSeconds", rampupSeconds);
    m.put("windowSeconds", windowSeconds);
    return m;
  }

  /** A track as session.json names it; an unknown one is a damaged file. */
  private static Track track(String label) {
    try {
      return Track.of(label);
    } catch (IllegalArgumentException e) {
      throw new PgknobException(
          "session.json names " + e.getMessage(), "the session folder's session.json is damaged");
    }
  }

  /** The objective as session.json names it; an unknown one is a damaged file. */
  private static Goal goal(String label) {
    try {
      return Goal.of(label);
    } catch (IllegalArgumentException e) {
      throw new PgknobException(
          "session.json names " + e.getMessage(), "the session folder's session.json is damaged");
    }
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
