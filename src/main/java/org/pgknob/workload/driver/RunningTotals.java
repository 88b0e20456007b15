package org.pgknob.workload.driver;

/**
 * One user's running totals since the run began, read by {@link TimelineSampler} once a second
 * while the user runs: written by the user's thread only, so implementations keep them volatile.
 */
public interface RunningTotals {
  /** Transactions committed so far. */
  long committedTotal();

  /** Their latencies summed, in microseconds. */
  long committedLatencyMicrosTotal();
}
