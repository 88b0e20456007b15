package org.pgknob.workload.driver;

import org.HdrHistogram.Histogram;

/**
 * One client's figures, written by that client's thread only: the window's latency histogram and
 * counts (read after the client stopped), and running totals for the per-second timeline.
 */
final class ClientStats implements RunningTotals {
  final Histogram windowLatencyMicros = Latencies.histogram();
  long windowErrors;

  private volatile long committedTotal;
  private volatile long committedLatencyMicrosTotal;

  void recordCommit(long micros, boolean inWindow) {
    if (inWindow) {
      windowLatencyMicros.recordValue(Math.min(micros, Latencies.HIGHEST_MICROS));
    }
    // Single writer: a volatile read-modify-write is safe here.
    committedTotal = committedTotal + 1;
    committedLatencyMicrosTotal = committedLatencyMicrosTotal + micros;
  }

  void recordError(boolean inWindow) {
    if (inWindow) {
      windowErrors++;
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
