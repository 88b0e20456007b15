package org.pgknob.workload.driver;

import org.HdrHistogram.Histogram;
import org.pgknob.workload.LatencySummary;

/** Latency histograms of a driver: microseconds up to ten minutes, three significant digits. */
public final class Latencies {
  public static final long HIGHEST_MICROS = 600_000_000L;

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
}
