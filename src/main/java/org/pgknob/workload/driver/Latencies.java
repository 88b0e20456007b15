package org.pgknob.workload.driver;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.pgknob.workload.LatencySummary;

/** Latency histograms of a driver: microseconds up to ten minutes, three significant digits. */
public final class Latencies {
  public static final long HIGHEST_MICROS = 600_000_000L;

  /**
   * The percentiles kept per run for the distribution plot: where HdrHistogram's percentile plot
   * puts its ticks (each adds a nine) plus the median and p95 people quote. 0 and 100 are the
   * fastest and the slowest call.
   */
  static final double[] KEPT_PERCENTILES = {0, 50, 75, 90, 95, 99, 99.9, 99.99, 99.999, 100};

  private Latencies() {}

  public static Histogram histogram() {
    return new Histogram(HIGHEST_MICROS, 3);
  }

  /** A histogram of microseconds as milliseconds; {@link LatencySummary#NONE} when empty. */
  public static LatencySummary summary(Histogram micros) {
    if (micros.getTotalCount() == 0) {
      return LatencySummary.NONE;
    }
    return new LatencySummary(
        micros.getTotalCount(),
        micros.getMean() / 1000.0,
        micros.getValueAtPercentile(50) / 1000.0,
        micros.getValueAtPercentile(95) / 1000.0,
        micros.getValueAtPercentile(99) / 1000.0,
        micros.getMaxValue() / 1000.0);
  }

  /**
   * The summary with its percentile table, for a run's overall latency. A level finer than the
   * calls can resolve (99.99% of 5,000 calls) is left out: it would only repeat the maximum.
   */
  public static LatencySummary summaryWithPercentiles(Histogram micros) {
    LatencySummary s = summary(micros);
    if (micros.getTotalCount() == 0) {
      return s;
    }
    List<LatencySummary.Percentile> table = new ArrayList<>();
    for (double p : KEPT_PERCENTILES) {
      if (p > 0 && p < 100 && 100.0 / (100.0 - p) > micros.getTotalCount()) {
        continue;
      }
      long v = p == 0 ? micros.getMinValue() : micros.getValueAtPercentile(p);
      table.add(new LatencySummary.Percentile(p, Math.round(v) / 1000.0));
    }
    return new LatencySummary(
        s.count(), s.avgMs(), s.p50Ms(), s.p95Ms(), s.p99Ms(), s.maxMs(), table);
  }
}
