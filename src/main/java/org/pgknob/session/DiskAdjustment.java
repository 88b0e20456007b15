package org.pgknob.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.pgknob.measure.AdjustedRatio;
import org.pgknob.measure.CovariateSlope;
import org.pgknob.measure.PairedRatio;
import org.pgknob.measure.RunNoise;
import org.pgknob.runs.Goal;
import org.pgknob.trial.TrialResult;

/**
 * Validation ratios adjusted for the disk's synchronous write rate during each run (the covariate a
 * {@code server.DiskProbe} records), by one slope pooled within every configuration the session ran
 * more than once ({@link CovariateSlope}, {@link AdjustedRatio}).
 *
 * <p>Why this covariate: on a shared or virtual disk TPS follows the write rate the disk grants
 * each run, which no setting chooses (README, Measurement: 45-57% of the run-to-run variance out of
 * sample). A pair is held as {value A, value B, covariate A, covariate B}; a pair whose runs lack
 * the covariate (a server elsewhere, a session recorded before pgknob probed) makes the ratio a
 * plain one.
 */
final class DiskAdjustment {
  private static final String UNPROBED = "not every run's disk rate was probed";
  private static final String IN_WINDOW =
      "the disk rate is measured inside the window, where the configuration's own writes move it";

  private DiskAdjustment() {}

  /** ln of the run's disk write rate, or NaN when it was not probed. */
  static double covariate(TrialResult t) {
    double rate = t.resources().diskSyncWritesPerSec();
    return rate > 0 ? Math.log(rate) : Double.NaN;
  }

  /** {A's value, B's value, A's covariate, B's covariate} on the objective. */
  static double[] pair(TrialResult a, TrialResult b, Goal objective) {
    return new double[] {
      Objectives.value(a, objective), Objectives.value(b, objective), covariate(a), covariate(b)
    };
  }

  /**
   * The slope of the objective's log value on the covariate, pooled within the session's repeated
   * configurations; {@link CovariateSlope#NONE} when too few runs carry the covariate.
   */
  static CovariateSlope slope(List<TrialResult> trials, Goal objective) {
    Map<Map<String, String>, List<double[]>> groups = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      double value = t.isOk() ? Objectives.value(t, objective) : Double.NaN;
      double x = covariate(t);
      if (value > 0 && Double.isFinite(value) && Double.isFinite(x)) {
        groups
            .computeIfAbsent(new TreeMap<>(t.settings()), k -> new ArrayList<>())
            .add(new double[] {value, x});
      }
    }
    return CovariateSlope.of(
        groups.values().stream().map(g -> g.toArray(new double[0][])).toList());
  }

  /**
   * The ratio B / A of the pairs, adjusted when every pair carries the covariate and the adjustment
   * is not refused, else the plain ratio with the session's pooled noise.
   */
  static AdjustedRatio ratio(
      List<double[]> pairs, RunNoise noise, CovariateSlope slope, double confidence) {
    double[] a = pairs.stream().mapToDouble(p -> p[0]).toArray();
    double[] b = pairs.stream().mapToDouble(p -> p[1]).toArray();
    boolean covered = pairs.stream().allMatch(p -> p.length == 4 && Double.isFinite(p[2] + p[3]));
    if (!covered) {
      PairedRatio plain = PairedRatio.of(a, b, confidence, noise);
      return new AdjustedRatio(plain, plain, slope, UNPROBED);
    }
    // Not applied: the probe runs inside the window, beside the server's own writes, and the
    // settings pgknob tunes change those writes: in a default tune on a quiet machine the
    // restart pick (shared_buffers=6GB) saw a disk rate 2%, 31% and 52% above the defaults' in
    // the same rounds, and adjusting would have read its raw +4% as -8% (README, Benchmarks).
    // Measured before the window the rate explained 0-20% of the noise. So the rate is recorded
    // and its share of the noise shown, and validation's ratios stay plain.
    PairedRatio plain = PairedRatio.of(a, b, confidence, noise);
    return new AdjustedRatio(plain, plain, slope, IN_WINDOW);
  }

  /**
   * "; adjusted for the disk's write rate: interval 35% narrower (slope +0.37 from 23 runs)"; when
   * refused because the candidate moved the rate, why; empty when the runs carry no rate.
   */
  static String note(AdjustedRatio r) {
    if (!r.applied()) {
      return r.slope().known() && !r.refusal().equals(UNPROBED) && !r.refusal().equals(IN_WINDOW)
          ? "; not adjusted for the disk's write rate: " + r.refusal()
          : "";
    }
    return String.format(
        Locale.ROOT,
        "; adjusted for the disk's write rate: interval %.0f%% narrower (slope %+.2f from %d runs)",
        100 * r.narrowing(),
        r.slope().slope(),
        r.slope().residual().runs());
  }

  /**
   * The console's line on the adjustment: "disk (tps): TPS follows the disk's synchronous write
   * rate (slope +0.37 per log unit, from 23 runs of 2 configurations), which explains 59% of the
   * run-to-run variance; residual noise 13.8%"; empty when no slope.
   */
  static String line(List<TrialResult> trials, Goal objective) {
    CovariateSlope s = slope(trials, objective);
    if (!s.known()) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "disk (%s): the disk's synchronous write rate during each run explains %.0f%% of the"
            + " run-to-run variance (slope %+.2f per log unit, se %.2f, from %d runs of %d"
            + " configurations; residual noise %.1f%%); not used to adjust validation: the server's own writes,"
            + " which the settings change, move it too",
        objective,
        100 * s.varianceExplained(),
        s.slope(),
        s.slopeSe(),
        s.residual().runs(),
        s.residual().configurations(),
        100 * s.residual().cv());
  }
}
