package org.pgknob.workload.tprocc;

import org.HdrHistogram.Histogram;
import org.pgknob.workload.driver.RunningTotals;

/**
 * One virtual user's figures, written by that user's thread only. The window's histograms and
 * counters are read after the user stopped; the running totals (for the per-second timeline) are
 * volatile so the sampler sees them while the user runs.
 */
final class UserStats implements RunningTotals {
  /** Latencies are recorded in microseconds up to ten minutes, to three significant digits. */
  static final long HIGHEST_MICROS = 600_000_000L;

  private static final int TYPES = TransactionType.values().length;

  final Histogram[] windowLatencyMicros = new Histogram[TYPES];
  final long[] windowCalls = new long[TYPES];
  final long[] windowRollbacks = new long[TYPES];
  final long[] windowErrors = new long[TYPES];

  private volatile long committedTotal;
  private volatile long committedLatencyMicrosTotal;

  UserStats() {
    for (int i = 0; i < TYPES; i++) {
      windowLatencyMicros[i] = new Histogram(HIGHEST_MICROS, 3);
    }
  }

  /** A call that returned (committed, or rolled back as TPC-C asks). */
  void recordCall(TransactionType type, boolean committed, long micros, boolean inWindow) {
    if (inWindow) {
      int i = type.ordinal();
      windowCalls[i]++;
      if (!committed) {
        windowRollbacks[i]++;
      }
      windowLatencyMicros[i].recordValue(Math.min(micros, HIGHEST_MICROS));
    }
    if (committed) {
      // Single writer: a volatile read-modify-write is safe here.
      committedTotal = committedTotal + 1;
      committedLatencyMicrosTotal = committedLatencyMicrosTotal + micros;
    }
  }

  void recordError(TransactionType type, boolean inWindow) {
    if (inWindow) {
      windowErrors[type.ordinal()]++;
    }
  }

  @Override
  public long committedTotal() {
    return committedTotal;
  }

  @Override
  public long committedLatencyMicrosTotal() {
    return committedLatencyMicrosTotal;
  }
}
