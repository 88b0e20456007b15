package org.pgknob.workload.driver;

import org.HdrHistogram.Histogram;

/**
 * One client's figures, written by that client's thread only. The window's histograms and counts
 * per transaction type are read after the client stopped; the running totals (for the per-second
 * timeline) are volatile so the sampler sees them while the client runs.
 */
final class ClientStats implements RunningTotals {
  final Histogram[] windowLatencyMicros;
  final long[] windowCalls;
  final long[] windowRollbacks;
  final long[] windowErrors;

  private volatile long committedTotal;
  private volatile long committedLatencyMicrosTotal;

  ClientStats(int types) {
    windowLatencyMicros = new Histogram[types];
    for (int i = 0; i < types; i++) {
      windowLatencyMicros[i] = Latencies.histogram();
    }
    windowCalls = new long[types];
    windowRollbacks = new long[types];
    windowErrors = new long[types];
  }

  /** A call that returned: committed, or rolled back as the workload asks. */
  void recordCall(int type, boolean committed, long micros, boolean inWindow) {
    if (inWindow) {
      windowCalls[type]++;
      if (!committed) {
        windowRollbacks[type]++;
      }
      windowLatencyMicros[type].recordValue(Math.min(micros, Latencies.HIGHEST_MICROS));
    }
    if (committed) {
      // Single writer: a volatile read-modify-write is safe here.
      committedTotal = committedTotal + 1;
      committedLatencyMicrosTotal = committedLatencyMicrosTotal + micros;
    }
  }

  void recordError(int type, boolean inWindow) {
    if (inWindow) {
      windowErrors[type]++;
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
