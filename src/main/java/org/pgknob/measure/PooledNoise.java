package org.pgknob.measure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * One run-to-run noise estimate pooled from every configuration the session ran more than once
 * (baselines, reference runs, race re-runs, validation rounds).
 *
 * <p>Why pool: three back-to-back baseline runs understate the noise several times over (they share
 * the machine's state of those minutes); runs of many configurations spread over the whole session
 * see its real variation. Each configuration contributes its squared deviations from its own mean,
 * so differences between configurations do not count as noise. On logs, so a 5% wobble of a fast
 * configuration weighs as much as one of a slow one.
 *
 * <p>Robust to one outlying run. One run that other processes halved (a build took a core for its
 * window) adds its squared deviation to a sum of a few dozen ordinary ones and can double the
 * estimate: a 60-minute session reported a baseline noise of 28.7% and "gains under 77% cannot be
 * told from noise" after one such run. So the run that lies farthest from the other runs of its
 * configuration, measured in the noise pooled from all the other runs (a leave-one-out t statistic,
 * which for normal noise has an exact t distribution: the run is independent of the runs that
 * estimate the noise), is left out when that deviation is beyond what {@value #OUTLIER_ERROR_RATE}
 * over all runs tested (Bonferroni) allows. Why this and not a median-based scale: a session's
 * configurations are run 2 to 6 times each, so medians of so few runs are poor estimates (a median
 * absolute deviation wastes about two thirds of the information normal noise carries), while this
 * test leaves the usual pooled estimate exactly as it was in all but 1% of sessions without an
 * outlier. Only a lone outlier is left out: when, without it, the next run is as far out, the
 * outliers recur (drops that hit 1 run in 20), they are the noise this machine has, and every run
 * counts. A configuration run twice cannot say which of its two runs is the odd one, so only
 * configurations of 3 runs or more are tested, and only once the other runs give {@value
 * #MIN_DEGREES_OF_FREEDOM} degrees of freedom: three baselines alone cannot tell an outlier from
 * noise (the two others give one degree of freedom).
 */
public final class PooledNoise {
  /** The chance, over all runs tested, that an ordinary run is left out of the noise. */
  static final double OUTLIER_ERROR_RATE = 0.01;

  /**
   * The fewest degrees of freedom the noise a run is tested against must rest on. With fewer, the
   * test has almost no power (t(2) at 0.1% is 31), and it answers only when the other runs agree to
   * the last digit, as a synthetic command's repeated values do: an ordinary run would then be left
   * out and the noise read as zero.
   */
  static final int MIN_DEGREES_OF_FREEDOM = 6;

  private PooledNoise() {}

  /**
   * The pooled noise of groups of repeated runs; each group holds the values (all positive) of one
   * configuration. Groups of one run carry no information on noise and are left out, and so is one
   * gross outlier (see the class comment).
   */
  public static RunNoise of(Collection<double[]> groups) {
    List<double[]> logs = new ArrayList<>();
    for (double[] g : groups) {
      if (g.length >= 2) {
        logs.add(Stats.logs(g));
      }
    }
    RunNoise all = classical(logs);
    Outlier first = mostOutlying(logs);
    if (first == null || !first.beyondNoise()) {
      return all;
    }
    List<double[]> thinned = new ArrayList<>(logs);
    thinned.set(first.group(), without(logs.get(first.group()), first.index()));
    Outlier second = mostOutlying(thinned);
    // A second run as far out means the outliers recur: they are this machine's noise, not one
    // disturbed run, and the intervals must count them.
    return second != null && second.beyondNoise() ? all : classical(thinned);
  }

  private static RunNoise classical(List<double[]> logs) {
    double squares = 0;
    int df = 0;
    int runs = 0;
    for (double[] l : logs) {
      squares += squaresAroundMean(l);
      df += l.length - 1;
      runs += l.length;
    }
    return new RunNoise(df == 0 ? 0 : Math.sqrt(squares / df), df, runs, logs.size());
  }

  /**
   * The run farthest from the mean of its configuration's other runs, in units of the noise pooled
   * from all runs but it, and whether that is beyond {@link #OUTLIER_ERROR_RATE} over all runs
   * tested; null when no configuration has 3 runs or the rest leave fewer than 2 degrees of
   * freedom.
   */
  private static Outlier mostOutlying(List<double[]> logs) {
    double squares = 0;
    int df = 0;
    double[] groupSquares = new double[logs.size()];
    for (int g = 0; g < logs.size(); g++) {
      groupSquares[g] = squaresAroundMean(logs.get(g));
      squares += groupSquares[g];
      df += logs.get(g).length - 1;
    }
    if (df - 1 < MIN_DEGREES_OF_FREEDOM) {
      return null;
    }
    Outlier found = null;
    int tested = 0;
    for (int g = 0; g < logs.size(); g++) {
      double[] l = logs.get(g);
      if (l.length < 3) {
        continue;
      }
      for (int i = 0; i < l.length; i++) {
        tested++;
        double[] others = without(l, i);
        double sdWithout =
            Math.sqrt((squares - groupSquares[g] + squaresAroundMean(others)) / (df - 1));
        double t =
            Math.abs(l[i] - Stats.mean(others)) / (sdWithout * Math.sqrt(1 + 1.0 / others.length));
        if (sdWithout > 0 && (found == null || t > found.t())) {
          found = new Outlier(g, i, t, 0);
        }
      }
    }
    if (found == null) {
      return null;
    }
    double critical =
        new TDistribution((RandomGenerator) null, df - 1)
            .inverseCumulativeProbability(1 - OUTLIER_ERROR_RATE / (2 * tested));
    return new Outlier(found.group(), found.index(), found.t(), critical);
  }

  /** A run (its configuration's index and its own), its t statistic and the test's critical t. */
  private record Outlier(int group, int index, double t, double critical) {
    boolean beyondNoise() {
      return t > critical;
    }
  }

  private static double squaresAroundMean(double[] logs) {
    double m = Stats.mean(logs);
    double s = 0;
    for (double v : logs) {
      s += (v - m) * (v - m);
    }
    return s;
  }

  private static double[] without(double[] values, int index) {
    double[] out = new double[values.length - 1];
    for (int i = 0, j = 0; i < values.length; i++) {
      if (i != index) {
        out[j++] = values[i];
      }
    }
    return out;
  }
}
