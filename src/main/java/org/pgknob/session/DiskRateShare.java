package org.pgknob.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.pgknob.measure.CovariateSlope;
import org.pgknob.runs.Goal;
import org.pgknob.trial.TrialResult;

/**
 * The share of the run-to-run noise the disk's synchronous write rate explains, for sessions run
 * with {@code --disk-probe} ({@code server.DiskProbe} records the rate with each trial): one slope
 * of the objective's log value on the log rate, pooled within every configuration the session ran
 * more than once ({@link CovariateSlope}).
 *
 * <p>Shown, never used to adjust validation: the probe runs inside the window, beside the server's
 * own writes, and the settings pgknob tunes change those writes. In a default tune on a quiet
 * machine the restart pick (shared_buffers=6GB) saw a disk rate 2%, 31% and 52% above the defaults'
 * in the same rounds, and adjusting would have read its raw +4% as -8% (README, Benchmarks).
 * Measured before the window, the rate explained 0-20% of the noise only.
 */
final class DiskRateShare {
  private DiskRateShare() {}

  /**
   * The console's line: "disk (tps): the disk's synchronous write rate during each run explains 59%
   * of the run-to-run variance (slope +0.37 per log unit, ...)"; empty when too few runs carry the
   * rate (the probe was off, a server elsewhere, a session recorded before pgknob probed).
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

  /** The slope pooled within the session's repeated configurations, over the runs with a rate. */
  private static CovariateSlope slope(List<TrialResult> trials, Goal objective) {
    Map<Map<String, String>, List<double[]>> groups = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      double value = t.isOk() ? Objectives.value(t, objective) : Double.NaN;
      double rate = t.resources().diskSyncWritesPerSec(); // 0: not probed
      if (value > 0 && Double.isFinite(value) && rate > 0) {
        groups
            .computeIfAbsent(new TreeMap<>(t.settings()), k -> new ArrayList<>())
            .add(new double[] {value, Math.log(rate)});
      }
    }
    return CovariateSlope.of(
        groups.values().stream().map(g -> g.toArray(new double[0][])).toList());
  }
}
