package org.pgknob.measure;

import java.util.Arrays;

/**
 * The one run of a configuration that a drop explains: its worst run, when it lies far below the
 * median of the others.
 *
 * <p>Why: a machine's runs now and then lose 30% to something of their own (a checkpoint, a
 * neighbour's burst), and no run is lucky by as much. A search ranks a configuration by the mean of
 * its few runs, so one such run costs it about 30% over the run count: measured twice, a
 * configuration that is truly the best ranks below one 15% worse. Leaving out its worst run when it
 * lies more than {@link DriftModel#MIN_DROP} (about 18%) below the others' median, and at most one,
 * treats a drop as the reference runs' drift model does; a configuration that falls that far twice
 * is still seen as erratic ({@link Instability}) by its remaining runs.
 */
public final class LoneDrop {
  private LoneDrop() {}

  /**
   * How far (log scale, about 18%) a run must lie beyond the others to count as a drop: {@link
   * DriftModel#MIN_DROP}, the reference runs' rule.
   */
  public static final double THRESHOLD = DriftModel.MIN_DROP;

  /**
   * The index of the run to leave out of a ranking, or -1: the worst run (the lowest when higher is
   * better, else the highest), when it lies more than {@link DriftModel#MIN_DROP} in log scale
   * beyond the median of the other runs. Needs 2 runs at the least (one other to compare with).
   */
  public static int of(double[] runs, boolean higherIsBetter) {
    if (runs.length < 2) {
      return -1;
    }
    int worst = 0;
    for (int i = 1; i < runs.length; i++) {
      if (higherIsBetter ? runs[i] < runs[worst] : runs[i] > runs[worst]) {
        worst = i;
      }
    }
    double[] others = new double[runs.length - 1];
    for (int i = 0, k = 0; i < runs.length; i++) {
      if (i != worst) {
        others[k++] = Math.log(runs[i]);
      }
    }
    Arrays.sort(others);
    int m = others.length;
    double median = m % 2 == 1 ? others[m / 2] : (others[m / 2 - 1] + others[m / 2]) / 2;
    double beyond =
        higherIsBetter ? median - Math.log(runs[worst]) : Math.log(runs[worst]) - median;
    return beyond > THRESHOLD ? worst : -1;
  }

  /**
   * Whether {@code run} lies more than {@link #THRESHOLD} (log scale) beyond the median of {@code
   * others}, on the worse side: below it when higher is better, above it otherwise. False when
   * there is nothing to compare with.
   */
  public static boolean beyond(double run, double[] others, boolean higherIsBetter) {
    if (others.length == 0 || !(run > 0)) {
      return false;
    }
    double[] logs = Stats.logs(others);
    Arrays.sort(logs);
    int m = logs.length;
    double median = m % 2 == 1 ? logs[m / 2] : (logs[m / 2 - 1] + logs[m / 2]) / 2;
    double by = higherIsBetter ? median - Math.log(run) : Math.log(run) - median;
    return by > THRESHOLD;
  }

  /** The runs without the one {@link #of} leaves out (all of them when none). */
  public static double[] without(double[] runs, boolean higherIsBetter) {
    int out = of(runs, higherIsBetter);
    if (out < 0) {
      return runs.clone();
    }
    double[] kept = new double[runs.length - 1];
    for (int i = 0, k = 0; i < runs.length; i++) {
      if (i != out) {
        kept[k++] = runs[i];
      }
    }
    return kept;
  }
}
