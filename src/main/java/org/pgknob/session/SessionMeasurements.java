package org.pgknob.session;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.pgknob.measure.BatchMeans;
import org.pgknob.measure.DriftModel;
import org.pgknob.measure.Instability;
import org.pgknob.measure.LoneDrop;
import org.pgknob.measure.NoiseComponents;
import org.pgknob.measure.PooledNoise;
import org.pgknob.measure.RunNoise;
import org.pgknob.measure.WindowError;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.SecondSample;

/**
 * What the logged trials say about the measurement itself, for one objective: each window's own
 * standard error, the run-to-run noise pooled from every configuration run more than once, the
 * drift of the defaults over the session, and each trial's drift-corrected value with its standard
 * error. Computed from trials.jsonl alone, so a resumed session sees the same.
 *
 * <p>The drift rests on every configuration measured more than once: the defaults (the scale) and
 * the others (the incumbent's reference runs, race runs, validation runs) through their ratios to
 * the defaults' level ({@link DriftModel#of(List, List, int)}), so a session that measures its
 * incumbent again between rare runs of the defaults still follows the drift.
 *
 * <p>Time is the trial number: it orders trials as the clock does, and a resumed session's pause
 * does not count as time in which the machine drifted.
 */
final class SessionMeasurements {
  /** Neighbouring reference runs averaged into one level (see {@link DriftModel}). */
  static final int DRIFT_SMOOTHING = 3;

  private final Goal objective;
  private final Map<Integer, WindowError> windows = new LinkedHashMap<>();

  /** The windows the window error rests on: the quiet ones in a mostly quiet session, else all. */
  private final List<WindowError> errorWindows;

  private final RunNoise noise;
  private final DriftModel drift;
  // The level of the references' quiet runs, for quiet trials; null when no reference run was
  // disturbed or none was quiet (then every trial uses drift).
  private final DriftModel quietDrift;
  private final Set<Integer> disturbedTrials = new HashSet<>();
  private final NoiseComponents components;
  private final List<DriftModel.Reference> references = new ArrayList<>();
  private final Map<Map<String, String>, double[]> runsBySettings = new LinkedHashMap<>();

  /** The error rate of the instability test ({@link #unstable}). */
  static final double INSTABILITY_ERROR_RATE = 0.01;

  SessionMeasurements(List<TrialResult> trials, Goal objective) {
    this.objective = objective;
    Map<Map<String, String>, List<Double>> byConfiguration = new LinkedHashMap<>();
    Map<Map<String, String>, List<DriftModel.Reference>> runsOf = new LinkedHashMap<>();
    Map<Map<String, String>, List<Boolean>> disturbedBy = new LinkedHashMap<>();
    List<WindowError> quietWindows = new ArrayList<>(); // other processes did not disturb them
    double windowSeconds = 0;
    for (TrialResult t : trials) {
      if (!t.isOk() || !(Objectives.value(t, objective) > 0)) {
        continue;
      }
      double value = Objectives.value(t, objective);
      byConfiguration
          .computeIfAbsent(new TreeMap<>(t.settings()), k -> new ArrayList<>())
          .add(value);
      disturbedBy
          .computeIfAbsent(new TreeMap<>(t.settings()), k -> new ArrayList<>())
          .add(t.resources().disturbedByOtherProcesses());
      if (t.resources().disturbedByOtherProcesses()) {
        disturbedTrials.add(t.trial());
      }
      if (t.settings().isEmpty()) {
        references.add(new DriftModel.Reference(t.trial(), value));
      } else {
        runsOf
            .computeIfAbsent(new TreeMap<>(t.settings()), k -> new ArrayList<>())
            .add(new DriftModel.Reference(t.trial(), value));
      }
      Optional<WindowError> w = window(t, objective);
      if (w.isPresent()) {
        windows.put(t.trial(), w.get());
        if (!t.resources().disturbedByOtherProcesses()) {
          quietWindows.add(w.get());
        }
        // The seconds the error rests on: a command's own run time may differ from them.
        windowSeconds = t.workload().timeline().stream().filter(SecondSample::measured).count();
      }
    }
    for (var g : byConfiguration.entrySet()) {
      runsBySettings.put(
          g.getKey(), g.getValue().stream().mapToDouble(Double::doubleValue).toArray());
    }
    boolean mostlyQuiet = mostlyQuiet(disturbedBy);
    this.noise = PooledNoise.of(withoutDisturbedRuns(byConfiguration, disturbedBy, mostlyQuiet));
    // An unstable configuration's runs would bend the level with their own swings.
    List<List<DriftModel.Reference>> steady = new ArrayList<>();
    runsOf.forEach(
        (settings, runs) -> {
          if (!unstable(settings)) {
            steady.add(runs);
          }
        });
    this.drift = DriftModel.of(references, steady, DRIFT_SMOOTHING);
    this.quietDrift = quietLevel(references, steady, disturbedTrials);
    // The window error the noise is split by comes from the same kind of runs as the noise: a
    // query that began halfway through a window swung its seconds by 10 to 16% where quiet
    // windows held 0.5 to 4%.
    this.errorWindows =
        mostlyQuiet && !quietWindows.isEmpty()
            ? List.copyOf(quietWindows)
            : List.copyOf(windows.values());
    double within =
        Math.sqrt(
            errorWindows.stream()
                .mapToDouble(w -> w.relativeError() * w.relativeError())
                .average()
                .orElse(0));
    this.components = NoiseComponents.split(noise, within, windowSeconds > 0 ? windowSeconds : 1);
  }

  /**
   * The runs the pooled noise rests on: every run, except the runs other processes disturbed
   * ({@link org.pgknob.server.ResourceSummary#disturbedByOtherProcesses()}: more than an eighth of
   * the host's cores) of a configuration with at least two quiet runs, when the quiet runs
   * outnumber the disturbed ones in the configuration or in the whole session. Why: {@link
   * PooledNoise} leaves out a lone outlier only once the other runs give it enough degrees of
   * freedom, and three baselines do not; one baseline run during which a build took a core made a
   * 60-minute session read its noise as 28.7% and print "gains under 77% cannot be told from
   * noise". Nor does it leave out two: a 12-minute session whose second and third baselines ran
   * beside a build (1627 and 1576 TPS against 2950, then 3000 +- 2% in its seven validation rounds)
   * read 17.3% and "gains under 33%". The session counts too: beside a cron job's query, PGTune-
   * style had 4 of its 7 runs disturbed in a session whose runs were mostly quiet, and counting
   * them made a 4% noise read 15%. The trial records what happened during its window, so those runs
   * can be told apart without a statistical test. On a machine busy most of the time, most runs
   * were disturbed: then they are the noise the session lives with, and every run counts.
   * Validation leaves out disturbed runs by a rule of its own ({@link ValidationDrops}).
   *
   * @param mostlyQuiet whether the session's quiet runs outnumber its disturbed ones
   */
  static List<double[]> withoutDisturbedRuns(
      Map<Map<String, String>, List<Double>> values,
      Map<Map<String, String>, List<Boolean>> disturbed,
      boolean mostlyQuiet) {
    List<double[]> groups = new ArrayList<>();
    values.forEach(
        (settings, runs) -> {
          List<Boolean> flags = disturbed.get(settings);
          long count = flags.stream().filter(Boolean::booleanValue).count();
          long quiet = runs.size() - count;
          boolean leaveOut = count > 0 && quiet >= 2 && (quiet > count || mostlyQuiet);
          List<Double> kept = new ArrayList<>();
          for (int i = 0; i < runs.size(); i++) {
            if (!(leaveOut && flags.get(i))) {
              kept.add(runs.get(i));
            }
          }
          groups.add(kept.stream().mapToDouble(Double::doubleValue).toArray());
        });
    return groups;
  }

  /** Whether the quiet runs of the session outnumber the ones other processes disturbed. */
  private static boolean mostlyQuiet(Map<Map<String, String>, List<Boolean>> disturbed) {
    long all = disturbed.values().stream().mapToLong(List::size).sum();
    long busy =
        disturbed.values().stream().flatMap(List::stream).filter(Boolean::booleanValue).count();
    return all - busy > busy;
  }

  /**
   * A window's mean and batch-means standard error for the objective, from the measured seconds of
   * its timeline; empty when the workload gave no timeline (an external command) or too short a
   * one.
   */
  static Optional<WindowError> window(TrialResult t, Goal objective) {
    if (!t.isOk()) {
      return Optional.empty();
    }
    List<SecondSample> measured =
        t.workload().timeline().stream().filter(SecondSample::measured).toList();
    if (measured.size() < BatchMeans.MIN_BATCHES) {
      return Optional.empty();
    }
    double[] values = new double[measured.size()];
    for (int i = 0; i < values.length; i++) {
      SecondSample s = measured.get(i);
      values[i] = objective == Goal.TPS ? s.committed() : s.avgLatencyMs();
    }
    return Optional.of(BatchMeans.of(values));
  }

  RunNoise noise() {
    return noise;
  }

  /**
   * True when the runs of the configuration with these settings disagree beyond the run noise of
   * the other configurations ({@link Instability}, F test at 1%): such a configuration is ranked by
   * its worst run (issue 16). Its own runs are left out of the noise it is tested against, or a
   * wild configuration would raise the bar it is held to.
   */
  boolean unstable(Map<String, String> settings) {
    return unstable(settings, false);
  }

  /**
   * As {@link #unstable}, with the configuration's lone drop ({@link LoneDrop}) left out of its
   * runs: what a search ranks by, so that one drop does not make a configuration count at that
   * drop; one that falls far twice stays unstable.
   */
  boolean unstableBeyondOneDrop(Map<String, String> settings) {
    return unstable(settings, true);
  }

  private boolean unstable(Map<String, String> settings, boolean withoutLoneDrop) {
    double[] runs = runsBySettings.get(new TreeMap<>(settings));
    if (runs == null || runs.length < 2) {
      return false;
    }
    List<double[]> others = new ArrayList<>();
    runsBySettings.forEach(
        (k, v) -> {
          if (!k.equals(settings)) {
            others.add(v);
          }
        });
    double[] tested = withoutLoneDrop ? LoneDrop.without(runs, objective == Goal.TPS) : runs;
    return new Instability(INSTABILITY_ERROR_RATE).unstable(tested, PooledNoise.of(others));
  }

  DriftModel drift() {
    return drift;
  }

  /**
   * How far the defaults' quiet runs moved, when other processes disturbed some of the references
   * and not others: the range of all runs then says how much the disturbed ones lost ("moved 66.4%"
   * of a session whose quiet runs held within 5%), not how the machine drifted.
   *
   * @param range highest over lowest level of the quiet runs, minus 1
   * @param quietRuns the defaults' runs that were quiet
   * @param disturbedRuns the defaults' runs that other processes disturbed
   */
  record QuietDrift(double range, int quietRuns, int disturbedRuns) {}

  /** The quiet runs' drift ({@link QuietDrift}); empty when no reference run was disturbed. */
  Optional<QuietDrift> quietDrift() {
    if (quietDrift == null) {
      return Optional.empty();
    }
    int defaults = references.size();
    long quietDefaults =
        references.stream().filter(r -> !disturbedTrials.contains((int) r.time())).count();
    return Optional.of(
        new QuietDrift(quietDrift.range(), (int) quietDefaults, defaults - (int) quietDefaults));
  }

  /** Noise split into the part a longer window averages away and the rest. */
  NoiseComponents components() {
    return components;
  }

  /** The window error of trial {@code trial}, when its timeline gave one. */
  Optional<WindowError> window(int trial) {
    return Optional.ofNullable(windows.get(trial));
  }

  /** The trial's value moved to the session's average conditions (raw without references). */
  double corrected(TrialResult t) {
    double value = Objectives.value(t, objective);
    // One scale for every trial (the level of all runs), whichever level it is compared with.
    return drift.known() ? relative(t) * drift.meanLevel() : value;
  }

  /** The trial's value over the defaults' level at its time, or NaN without references. */
  double relative(TrialResult t) {
    if (!drift.known()) {
      return Double.NaN;
    }
    boolean quiet = t.resources() == null || !t.resources().disturbedByOtherProcesses();
    DriftModel level = quiet && quietDrift != null ? quietDrift : drift;
    return level.relative(t.trial(), Objectives.value(t, objective));
  }

  /**
   * The level of the reference runs that other processes did not disturb, when some were disturbed
   * and some were not; null otherwise. A quiet trial is compared with it: a build beside two of
   * three baselines put the level of all runs a third low, and every quiet search trial after them
   * read 1.57 to 1.65 times the defaults, which it equalled. A disturbed trial keeps the level of
   * all runs, the disturbed ones among them: where the load goes on, its runs are the ones like it.
   */
  private static DriftModel quietLevel(
      List<DriftModel.Reference> defaults,
      List<List<DriftModel.Reference>> others,
      Set<Integer> disturbedTrials) {
    List<DriftModel.Reference> quietDefaults = quiet(defaults, disturbedTrials);
    List<List<DriftModel.Reference>> quietOthers = new ArrayList<>();
    int left = defaults.size() - quietDefaults.size();
    for (List<DriftModel.Reference> runs : others) {
      List<DriftModel.Reference> kept = quiet(runs, disturbedTrials);
      left += runs.size() - kept.size();
      quietOthers.add(kept);
    }
    if (left == 0 || quietDefaults.isEmpty()) {
      return null;
    }
    return DriftModel.of(quietDefaults, quietOthers, DRIFT_SMOOTHING);
  }

  private static List<DriftModel.Reference> quiet(
      List<DriftModel.Reference> runs, Set<Integer> disturbedTrials) {
    return runs.stream().filter(r -> !disturbedTrials.contains((int) r.time())).toList();
  }

  /**
   * The standard error of a trial's corrected value in the metric's units: the between-run part of
   * the pooled noise and this window's own error (or the pooled within-window part when its
   * timeline gave none); empty when neither is known.
   */
  Optional<Double> standardError(TrialResult t) {
    Optional<WindowError> own = window(t.trial());
    double within = own.map(WindowError::relativeError).orElse(components.withinLogSd());
    double between = components.betweenLogSd();
    if (!noise.known() && own.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(corrected(t) * Math.sqrt(between * between + within * within));
  }

  /** The reference runs (the defaults) as (trial, value), in trial order. */
  List<DriftModel.Reference> references() {
    return List.copyOf(references);
  }

  /** The figures summary.json keeps for this objective. */
  Summary.Measurement summary() {
    double meanWindowSe =
        errorWindows.stream().mapToDouble(WindowError::relativeError).average().orElse(0);
    List<Summary.DriftPoint> points = new ArrayList<>();
    for (DriftModel.Reference r : references) {
      points.add(new Summary.DriftPoint((int) r.time(), r.value(), drift.levelAt(r.time())));
    }
    return new Summary.Measurement(
        objective,
        noise.cv(),
        noise.degreesOfFreedom(),
        noise.runs(),
        noise.configurations(),
        meanWindowSe,
        errorWindows.size(),
        drift.range(),
        points);
  }
}
