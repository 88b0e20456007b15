package org.pgknob.session;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.pgknob.PgknobException;
import org.pgknob.measure.DetectableEffect;
import org.pgknob.measure.NoiseComponents;
import org.pgknob.measure.RunNoise;
import org.pgknob.measure.WindowChoice;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.server.ForeignLoad;
import org.pgknob.trial.TrialResult;

/**
 * What the session says about its own measurements on the console: the noise and window error with
 * what they rest on, the drift of the defaults, the smallest gain the budget can show and what
 * would lower it, and a stop when runs are too unstable to tune on.
 */
final class MeasurementReport {
  /** Consecutive runs of the defaults further apart than this ratio are "wildly" unstable. */
  static final double UNSTABLE_RATIO = 1.5;

  private MeasurementReport() {}

  /**
   * "the defaults moved 9.8% over 5 runs", or, when other processes disturbed some of them, "the
   * defaults moved 5.4% over 6 quiet runs (66.4% over all 8, 2 disturbed by other processes)".
   */
  private static String driftText(SessionMeasurements m, Summary.Measurement s) {
    String all =
        String.format(
            Locale.ROOT,
            "the defaults moved %.1f%% over %d runs",
            100 * s.driftRange(),
            s.references().size());
    return m.quietDrift()
        .filter(q -> q.quietRuns() > 0 && q.disturbedRuns() > 0)
        .map(
            q ->
                String.format(
                    Locale.ROOT,
                    "the defaults moved %.1f%% over %d quiet runs (%.1f%% over all %d, %d disturbed"
                        + " by other processes)",
                    100 * q.range(),
                    q.quietRuns(),
                    100 * s.driftRange(),
                    s.references().size(),
                    q.disturbedRuns()))
        .orElse(all);
  }

  /**
   * One line per objective: "noise (tps): 7.4% run to run (pooled from 14 runs of 3 configurations,
   * 11 degrees of freedom); a window's own error 2.1% (batch means, 14 windows); the defaults moved
   * 9.8% over 5 runs". A workload that reports no per-second values (a command printing one value)
   * has no window error to give: "not known", where it said "0.0% (batch means, 0 windows)".
   */
  static String lines(List<TrialResult> trials) {
    StringBuilder out = new StringBuilder();
    for (Goal objective : List.of(Goal.TPS, Goal.LATENCY)) {
      if (objective == Goal.LATENCY && Objectives.unreported(trials, objective)) {
        out.append("noise (latency): ")
            .append(Objectives.NOT_REPORTED)
            .append(System.lineSeparator());
        continue;
      }
      SessionMeasurements m = new SessionMeasurements(trials, objective);
      RunNoise n = m.noise();
      var s = m.summary();
      out.append(
          String.format(
              Locale.ROOT,
              "noise (%s): %s run to run%s; a window's own error %s; %s%n",
              objective,
              n.known() ? String.format(Locale.ROOT, "%.1f%%", 100 * n.cv()) : "not known",
              n.known()
                  ? String.format(
                      Locale.ROOT,
                      " (pooled from %d runs of %d configurations, %d degrees of freedom)",
                      n.runs(),
                      n.configurations(),
                      n.degreesOfFreedom())
                  : "",
              s.windows() == 0
                  ? "not known (the workload reports no per-second values)"
                  : String.format(
                      Locale.ROOT,
                      "%.1f%% (batch means, %d windows)",
                      100 * s.windowRelativeSe(),
                      s.windows()),
              driftText(m, s)));
      String disk = DiskRateShare.line(trials, objective);
      if (!disk.isEmpty()) {
        out.append(disk).append(System.lineSeparator());
      }
    }
    return out.toString().stripTrailing();
  }

  /**
   * "with 15 s windows and 12m, gains under 9% cannot be told from noise; --budget 24m brings that
   * to 6%, --duration 60s to 5%": from the noise measured so far, the validation pairs the plan
   * has, and what a longer budget or window would give. Empty while no noise is known.
   */
  static Optional<String> detectableEffect(
      List<TrialResult> trials, SessionPlan plan, SessionInputs inputs, double trialSeconds) {
    return detectableGain(trials, plan, inputs, trialSeconds).map(MeasurementReport::line);
  }

  /**
   * The smallest gains the session can tell from noise: with its budget and windows, with twice the
   * budget, and (when pgknob times the runs) with the longer window that lowers it most in the same
   * time, if any does.
   *
   * @param windowSeconds the session's window
   * @param budget the session's --budget as given
   * @param pairs validation pairs in the plan
   * @param now smallest detectable gain now (0.09: 9%; infinite when no pair fits)
   * @param doubledBudget the same with twice the budget
   * @param timedByPgknob whether pgknob times the runs (--duration sets the window), so that a
   *     window length can be suggested at all
   * @param longerWindowSeconds the longer window suggested, 0 when none lowers the gain
   * @param longerWindow the smallest gain with that window, NaN when none is suggested
   * @param longerWindowBudget the --budget to give with it: the same, or for a budget of trials
   *     only the time those trials take now (a longer window in the same time)
   * @param noLongerWindow why no longer window is suggested, empty when one is or when pgknob does
   *     not time the runs
   */
  record DetectableGain(
      int windowSeconds,
      String budget,
      int pairs,
      double now,
      double doubledBudget,
      boolean timedByPgknob,
      int longerWindowSeconds,
      double longerWindow,
      String longerWindowBudget,
      String noLongerWindow) {
    /** The gains as the session is, before any longer window is weighed. */
    static DetectableGain of(
        int windowSeconds,
        String budget,
        int pairs,
        double now,
        double doubledBudget,
        boolean timedByPgknob) {
      return new DetectableGain(
          windowSeconds, budget, pairs, now, doubledBudget, timedByPgknob, 0, Double.NaN, "", "");
    }

    /** These gains with the longer window suggested, its gain and the --budget to give with it. */
    DetectableGain withLongerWindow(int seconds, double gain, String withBudget) {
      return new DetectableGain(
          windowSeconds,
          budget,
          pairs,
          now,
          doubledBudget,
          timedByPgknob,
          seconds,
          gain,
          withBudget,
          "");
    }

    /** These gains with why no longer window is suggested. */
    DetectableGain withNoLongerWindow(String why) {
      return new DetectableGain(
          windowSeconds, budget, pairs, now, doubledBudget, timedByPgknob, 0, Double.NaN, "", why);
    }
  }

  /** Longer windows tried for a suggestion, as multiples of the session's. */
  static final List<Integer> LONGER_FACTORS = List.of(2, 4, 8);

  /**
   * A longer window is suggested only when it lowers the detectable gain by at least this fraction
   * of it: a suggestion must be worth the trials it costs the search.
   */
  static final double WORTHWHILE_LOWERING = 0.1;

  /**
   * The smallest gain a validation of {@code pairs} rounds of {@code windowSeconds} windows can
   * tell from the noise in {@code m} ({@link DetectableEffect#DEFAULT}); NaN while no noise is
   * known.
   */
  static double smallestGain(SessionMeasurements m, int windowSeconds, int pairs) {
    RunNoise noise = m.noise();
    if (!noise.known()) {
      return Double.NaN;
    }
    return WindowChoice.evaluate(
            m.components(),
            windowSeconds,
            pairs,
            noise.degreesOfFreedom(),
            DetectableEffect.DEFAULT)
        .smallestGain();
  }

  /** {@link DetectableGain} from the noise measured so far; empty while no noise is known. */
  static Optional<DetectableGain> detectableGain(
      List<TrialResult> trials, SessionPlan plan, SessionInputs inputs, double trialSeconds) {
    SessionMeasurements m = new SessionMeasurements(trials, inputs.objective());
    RunNoise noise = m.noise();
    if (!noise.known() || plan.validationPairs() < 1) {
      return Optional.empty();
    }
    int window = inputs.windowSeconds();
    double overhead = Math.max(0, trialSeconds - window);
    NoiseComponents c = m.components();
    DetectableEffect effect = DetectableEffect.DEFAULT;
    int df = noise.degreesOfFreedom();
    double now = smallestGain(m, window, plan.validationPairs());
    // Twice the budget gives validation twice its share, so twice the pairs. Counted from the
    // window's time it was wrong whenever a trial's time is not the window's (an external command
    // times itself: its trials may be shorter than --duration, and no pair "fitted").
    double doubled = smallestGain(m, window, 2 * plan.validationPairs());
    boolean timed = inputs.workload().timedByPgknob();
    DetectableGain asItIs =
        DetectableGain.of(window, inputs.budget(), plan.validationPairs(), now, doubled, timed);
    if (!timed) {
      // An external command's run time is its own, not --duration: no window to suggest.
      return Optional.of(asItIs);
    }
    Budget given = Budget.parse(inputs.budget());
    double time = WindowBudget.timeOf(given, trialSeconds);
    // Same time: a budget of trials only becomes the time those trials take now.
    Budget sameTime =
        given.wallTime() != null
            ? given
            : new Budget(null, java.time.Duration.ofSeconds((long) Math.ceil(time / 60) * 60));
    WindowBudget budget = WindowBudget.whole(sameTime, trialSeconds, inputs);
    List<Integer> windows = new java.util.ArrayList<>(List.of(window));
    LONGER_FACTORS.forEach(f -> windows.add(f * window));
    WindowChoice.Choice choice =
        WindowChoice.choose(
            c,
            windows,
            w -> budget.validationRounds(overhead + w),
            df,
            effect,
            WORTHWHILE_LOWERING);
    WindowChoice.Option longer = choice.chosen();
    // Compared on the same footing (the rounds each window's plan would reserve), and never worse
    // than the figure printed for the session as it is.
    if (longer.windowSeconds() > window && longer.smallestGain() < now) {
      return Optional.of(
          asItIs.withLongerWindow(
              longer.windowSeconds(),
              longer.smallestGain(),
              given.wallTime() != null ? inputs.budget() : Budget.describe(sameTime.wallTime())));
    }
    return Optional.of(asItIs.withNoLongerWindow(whyNoLongerWindow(c, noise, choice, window)));
  }

  /**
   * Why no longer window is suggested, from the part of the noise that dominates: "longer windows
   * would not lower it: the runs differ by 11.2% and a window's own error is only 3.6%, ..." when
   * most of it lies between runs, which no window averages away; when most of it is the window's
   * own error, that a longer window cuts it by about as much as its fewer runs add back (a 6-minute
   * session of 3-s windows, runs 1.2% apart and windows 4.1% each, said the first, which reads as
   * its own contradiction); or that they leave too few validation rounds in this budget.
   */
  static String whyNoLongerWindow(
      NoiseComponents c, RunNoise noise, WindowChoice.Choice choice, int window) {
    boolean anyFits =
        choice.options().stream().anyMatch(o -> o.windowSeconds() > window && o.pairs() > 0);
    if (!anyFits) {
      return "longer windows would not fit a session in this budget";
    }
    if (c.betweenLogSd() >= c.withinLogSd()) {
      return String.format(
          Locale.ROOT,
          "longer windows would not lower it: the runs differ by %.1f%% and a window's own error is"
              + " only %.1f%%, so fewer, longer runs gain little",
          100 * noise.cv(),
          100 * c.withinLogSd());
    }
    return String.format(
        Locale.ROOT,
        "longer windows would not lower it: the noise is mostly a window's own error (%.1f%% at %d"
            + " s), which a longer window cuts by about as much as its fewer runs add back",
        100 * c.withinLogSd(),
        window);
  }

  private static String line(DetectableGain g) {
    String line =
        String.format(
            Locale.ROOT,
            "with %d s windows and the budget %s (%d validation pairs), gains under %s cannot be"
                + " told from noise; twice the budget brings that to %s",
            g.windowSeconds(),
            g.budget(),
            g.pairs(),
            percent(g.now()),
            percent(g.doubledBudget()));
    if (g.longerWindowSeconds() > 0) {
      line +=
          String.format(
              Locale.ROOT,
              ", --budget %s --duration %ds (same time) to %s",
              g.longerWindowBudget(),
              g.longerWindowSeconds(),
              percent(g.longerWindow()));
    } else if (!g.noLongerWindow().isEmpty()) {
      line += "; " + g.noLongerWindow();
    }
    return line;
  }

  static String percent(double gain) {
    return Double.isFinite(gain)
        ? String.format(Locale.ROOT, "%.0f%%", 100 * gain)
        : "nothing (no pair fits)";
  }

  /**
   * Stops the session when every run of the defaults so far differs from the previous one by more
   * than half: nothing could be told apart. Names the causes seen: other processes' CPU, and
   * checkpoints or autovacuum runs inside the windows.
   *
   * <p>One run that other processes slowed is left out of that judgement when it is the slowest and
   * the only one they touched: three baselines of 821, 464 and 803 TPS, the middle one while a
   * build took 0.8 of 2 cores, stopped a session as "too unstable" although the two undisturbed
   * runs agreed within 3%. A cause that recurs (two disturbed runs), a disturbed run that was not
   * the slow one (other processes' CPU does not make a run faster), or undisturbed runs that still
   * disagree stop it as before.
   *
   * @return a note for the console when a disturbed run was left out of the judgement
   * @throws PgknobException when the runs are that unstable
   */
  static Optional<String> checkStable(List<TrialResult> baselineRuns) {
    List<TrialResult> ok = baselineRuns.stream().filter(TrialResult::isOk).toList();
    if (ok.size() < 3 || steady(ok)) {
      return Optional.empty();
    }
    Optional<TrialResult> slowed = loneSlowestDisturbed(ok);
    if (slowed.isPresent()) {
      List<TrialResult> rest = ok.stream().filter(t -> t != slowed.get()).toList();
      if (steady(rest)) {
        return Optional.of(
            String.format(
                Locale.ROOT,
                "  the defaults' run of trial %d (%.0f TPS) is left out of the stability check: %s;"
                    + " the other runs of the defaults agree",
                slowed.get().trial(),
                slowed.get().workload().tps(),
                ForeignLoad.note(slowed.get().resources()).orElseThrow()));
      }
    }
    throw unstable(ok);
  }

  /** True when some run is within {@link #UNSTABLE_RATIO} of the run before it. */
  private static boolean steady(List<TrialResult> runs) {
    for (int i = 1; i < runs.size(); i++) {
      double a = runs.get(i - 1).workload().tps();
      double b = runs.get(i).workload().tps();
      if (Math.max(a, b) <= UNSTABLE_RATIO * Math.min(a, b)) {
        return true;
      }
    }
    return false;
  }

  /** The run other processes disturbed, when it is the only such run and the slowest of all. */
  private static Optional<TrialResult> loneSlowestDisturbed(List<TrialResult> runs) {
    List<TrialResult> disturbed =
        runs.stream().filter(t -> ForeignLoad.note(t.resources()).isPresent()).toList();
    if (disturbed.size() != 1) {
      return Optional.empty();
    }
    TrialResult d = disturbed.get(0);
    boolean slowest =
        runs.stream().allMatch(t -> t == d || t.workload().tps() > d.workload().tps());
    return slowest ? Optional.of(d) : Optional.empty();
  }

  private static PgknobException unstable(List<TrialResult> ok) {
    StringBuilder causes = new StringBuilder();
    for (TrialResult t : ok) {
      ForeignLoad.note(t.resources())
          .ifPresent(n -> causes.append("; trial ").append(t.trial()).append(": ").append(n));
      long checkpoints = t.workload().checkpoint().checkpointsInWindow();
      long vacuums = t.workload().checkpoint().autovacuumsInWindow();
      if (checkpoints + vacuums > 0) {
        causes.append(
            String.format(
                Locale.ROOT,
                "; trial %d: %d checkpoints and %d autovacuum runs inside its window",
                t.trial(),
                checkpoints,
                vacuums));
      }
    }
    return new PgknobException(
        "the measurements are too unstable to tune on: every run of the defaults differed by more"
            + " than 50% from the one before ("
            + String.join(
                ", ",
                ok.stream()
                    .map(t -> String.format(Locale.ROOT, "%.0f", t.workload().tps()))
                    .toList())
            + " TPS)"
            + (causes.length() == 0
                ? "; no other processes' CPU, checkpoints or autovacuum runs were seen"
                : causes.toString()),
        "stop what else runs on the machine, use longer windows (--duration) or a larger"
            + " ramp-up (--rampup), then start a new session");
  }
}
