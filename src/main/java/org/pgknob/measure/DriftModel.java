package org.pgknob.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The level of one unchanged reference configuration over the session's time, from its repeated
 * runs, and each trial's value relative to that level at the trial's time.
 *
 * <p>Why: the machine's speed drifts within minutes (page cache, the host's other tenants, the
 * disk's background work), by more than most gains worth finding. A trial compared with the
 * reference measured near its own time loses that drift. The level is interpolated linearly in log
 * scale between reference runs and held flat beyond the first and last. Each reference level is the
 * mean of its run and its neighbours' ({@code smoothing} runs centred on it), trading a little lag
 * in a fast drift for less of the references' own noise in every corrected value.
 *
 * <p>A reference run far below its neighbours is left out of the level (see {@link
 * #dropped(double[])}): a machine's runs now and then fall 30% for a reason of their own (a
 * checkpoint, a neighbour's burst), and averaged with its neighbours such a run lowers the level by
 * a tenth around it, so that every trial measured nearby looks a tenth better than it is.
 */
public final class DriftModel {
  /** A reference run: when it ran (any monotone clock, e.g. seconds or trial number) and value. */
  public record Reference(double time, double value) {}

  private final double[] times;
  private final double[] rawLogs;
  private final double[] logLevels;
  private final double anchor;
  private final int references;

  private DriftModel(double[] times, double[] rawLogs, double[] logLevels, int references) {
    this.times = times;
    this.rawLogs = rawLogs;
    this.logLevels = logLevels;
    this.references = references;
    this.anchor = logLevels.length == 0 ? 0 : Stats.mean(logLevels);
  }

  /**
   * The drift model of these reference runs (values positive), each level smoothed over {@code
   * smoothing} neighbouring runs (1: the raw runs; odd numbers centre the window).
   */
  public static DriftModel of(List<Reference> references, int smoothing) {
    if (smoothing < 1) {
      throw new IllegalArgumentException("smoothing must be >= 1, but got " + smoothing);
    }
    List<Reference> sorted = new ArrayList<>(references);
    sorted.sort(Comparator.comparingDouble(Reference::time));
    int n = sorted.size();
    double[] t = new double[n];
    double[] raw = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = sorted.get(i).time();
      raw[i] = Stats.logs(new double[] {sorted.get(i).value()})[0];
    }
    boolean[] out = dropped(raw);
    int kept = 0;
    for (boolean o : out) {
      kept += o ? 0 : 1;
    }
    double[] keptTimes = new double[kept];
    double[] keptLogs = new double[kept];
    for (int i = 0, k = 0; i < n; i++) {
      if (!out[i]) {
        keptTimes[k] = t[i];
        keptLogs[k++] = raw[i];
      }
    }
    double[] level = new double[kept];
    int half = (smoothing - 1) / 2;
    for (int i = 0; i < kept; i++) {
      int from = Math.max(0, i - half);
      int to = Math.min(kept - 1, i + half);
      double sum = 0;
      for (int j = from; j <= to; j++) {
        sum += keptLogs[j];
      }
      level[i] = sum / (to - from + 1);
    }
    return new DriftModel(keptTimes, keptLogs, level, n);
  }

  /** Fewer runs than this tell no neighbours' level and no spread to judge a run by. */
  static final int MIN_RUNS_TO_JUDGE = 5;

  /** Runs on each side whose median is a run's expected level. */
  static final int NEIGHBOURS = 2;

  /** How many robust standard deviations below its neighbours a run must lie to be left out. */
  static final double ROBUST_SDS = 2.5;

  /**
   * How far below its neighbours (in log scale, about 18%) a run must lie at the least to be left
   * out: the robust spread of the few steps of a short series (a session's first reference runs)
   * can come out near 0 by chance, and a trend then makes the first runs look like drops; a smaller
   * dip moves a smoothed level by a few percent only.
   */
  static final double MIN_DROP = 0.2;

  /**
   * Which runs (log values in time order) lie far below their neighbours: a run's deviation from
   * the median of up to {@link #NEIGHBOURS} runs on each side, against {@link #ROBUST_SDS} times a
   * robust noise of one run, from the median absolute deviation of the steps between successive
   * runs. The medians are what the drops themselves neither pull nor widen, where a mean and a
   * standard deviation would hide a drop behind the spread it causes; a step's median absolute
   * deviation, rather than that of the deviations from the neighbours, because a drop also shifts
   * the deviations of the runs around it. Only low runs: a run is not lucky by 30%, but it can lose
   * that much to something else on the machine. With 13 runs 7% noisy and a drift of 12%, 86% of
   * 30% drops are left out and 0.3% of other runs (those far below their neighbours by noise, whose
   * leaving out costs the level little).
   */
  static boolean[] dropped(double[] logs) {
    int n = logs.length;
    boolean[] out = new boolean[n];
    if (n < MIN_RUNS_TO_JUDGE) {
      return out;
    }
    double[] deviation = new double[n];
    for (int i = 0; i < n; i++) {
      List<Double> around = new ArrayList<>();
      for (int j = Math.max(0, i - NEIGHBOURS); j <= Math.min(n - 1, i + NEIGHBOURS); j++) {
        if (j != i) {
          around.add(logs[j]);
        }
      }
      deviation[i] = logs[i] - median(around);
    }
    List<Double> steps = new ArrayList<>();
    for (int i = 1; i < n; i++) {
      steps.add(logs[i] - logs[i - 1]);
    }
    double centre = median(steps);
    List<Double> absolute = new ArrayList<>();
    for (double d : steps) {
      absolute.add(Math.abs(d - centre));
    }
    // a step holds two runs' noise; 1.4826 x the median absolute deviation: a normal's sd
    double robustSd = 1.4826 * median(absolute) / Math.sqrt(2);
    for (int i = 0; i < n; i++) {
      out[i] = -deviation[i] > MIN_DROP && -deviation[i] > ROBUST_SDS * robustSd;
    }
    return out;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int m = sorted.size();
    return m % 2 == 1 ? sorted.get(m / 2) : (sorted.get(m / 2 - 1) + sorted.get(m / 2)) / 2;
  }

  /**
   * The drift model of several reference configurations: the defaults' runs (the scale: levels and
   * {@link #relative} stay relative to the defaults) and the runs of other configurations measured
   * again (the incumbent), each with its own constant factor. Each run's value over its
   * configuration's factor is one observation of the level, so the level is known wherever any
   * reference ran, and two references measured at different times tell the drift between them
   * through their ratios.
   *
   * <p>The factors and the level are fitted in turns (backfitting): each factor is the mean log
   * ratio of its configuration's runs to the level at their times, the level is then refitted from
   * all runs over their factors; a few rounds settle it. A configuration with one run tells nothing
   * about the drift (its factor absorbs it) and is left out.
   *
   * @param defaults the runs of the defaults (at least one for a known model)
   * @param others the runs of each other reference configuration
   */
  public static DriftModel of(
      List<Reference> defaults, List<List<Reference>> others, int smoothing) {
    List<List<Reference>> groups = new ArrayList<>();
    for (List<Reference> g : others) {
      if (g.size() >= 2) {
        groups.add(g);
      }
    }
    if (defaults.isEmpty() || groups.isEmpty()) {
      return of(defaults, smoothing);
    }
    double[] factors = new double[groups.size()];
    DriftModel model = of(defaults, smoothing);
    for (int round = 0; round < BACKFITTING_ROUNDS; round++) {
      for (int g = 0; g < groups.size(); g++) {
        double sum = 0;
        for (Reference r : groups.get(g)) {
          sum += Math.log(r.value()) - model.logLevelAt(r.time());
        }
        factors[g] = sum / groups.get(g).size();
      }
      List<Reference> all = new ArrayList<>(defaults);
      for (int g = 0; g < groups.size(); g++) {
        for (Reference r : groups.get(g)) {
          all.add(new Reference(r.time(), r.value() / Math.exp(factors[g])));
        }
      }
      model = of(all, smoothing);
    }
    return model;
  }

  /** Rounds of {@link #of(List, List, int)}'s backfitting: the factors move little after three. */
  static final int BACKFITTING_ROUNDS = 5;

  /** True when at least one reference run is known. */
  public boolean known() {
    return times.length > 0;
  }

  /** The reference level at {@code time}; NaN without reference runs. */
  public double levelAt(double time) {
    return Math.exp(logLevelAt(time));
  }

  private double logLevelAt(double time) {
    int n = times.length;
    if (n == 0) {
      return Double.NaN;
    }
    if (time <= times[0]) {
      return logLevels[0];
    }
    if (time >= times[n - 1]) {
      return logLevels[n - 1];
    }
    int i = 0;
    while (times[i + 1] < time) {
      i++;
    }
    double span = times[i + 1] - times[i];
    double w = span == 0 ? 0 : (time - times[i]) / span;
    return logLevels[i] + w * (logLevels[i + 1] - logLevels[i]);
  }

  /**
   * {@code value} over the reference level at {@code time}: 1.05 is 5% faster than the reference.
   */
  public double relative(double time, double value) {
    return value / levelAt(time);
  }

  /**
   * {@code value} moved to the session's average conditions: its ratio to the reference at its
   * time, times the reference's mean level (geometric). Drift-corrected values of different times
   * compare as if measured together, and keep the metric's units for the optimizer.
   */
  public double corrected(double time, double value) {
    return known() ? relative(time, value) * Math.exp(anchor) : value;
  }

  /** The mean reference level (geometric): the scale {@link #corrected} moves values to. */
  public double meanLevel() {
    return Math.exp(anchor);
  }

  /** Highest over lowest reference level, minus 1: 0.12 means the level moved by 12%. */
  public double range() {
    if (logLevels.length == 0) {
      return 0;
    }
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (double v : logLevels) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    return Math.exp(hi - lo) - 1;
  }

  /**
   * The systematic drift per unit of time, in log scale: the root mean square change between
   * reference runs at least {@code minGap} apart (each paired with the latest one that far before
   * it) per unit of time, after taking out what the runs' own noise alone would give (2 noise
   * variances per difference). Back-to-back runs are left out: over one or two trials a slow drift
   * cannot show, and their differences are noise. Runs left out of the level are left out here too:
   * a drop is no drift. 0 when no change beyond the noise is seen.
   */
  public double driftPerTime(RunNoise noise, double minGap) {
    double excess = 0;
    double squaredTime = 0;
    double noiseVariance = noise.known() ? noise.logSd() * noise.logSd() : 0;
    for (int i = 1; i < times.length; i++) {
      int j = i - 1;
      while (j >= 0 && times[i] - times[j] < minGap) {
        j--;
      }
      if (j < 0) {
        continue;
      }
      double d = rawLogs[i] - rawLogs[j];
      double dt = times[i] - times[j];
      excess += Math.max(0, d * d - 2 * noiseVariance);
      squaredTime += dt * dt;
    }
    return squaredTime == 0 ? 0 : Math.sqrt(excess / squaredTime);
  }

  /** The number of reference runs, those left out of the level included. */
  public int references() {
    return references;
  }

  /** The number of reference runs left out of the level as far below their neighbours. */
  public int droppedReferences() {
    return references - times.length;
  }
}
