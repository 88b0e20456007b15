package org.pgknob.target;

/**
 * The server's resource use over a window, from the process-tree sampler: CPU of all postgres
 * processes (100 = one core), memory summed over processes as RSS (shared memory counted once per
 * process, what pidstat users see) and as PSS (shared memory counted once), disk I/O rates. {@code
 * available} is false for a server on another host, and every figure is then zero.
 */
public record ResourceSummary(
    boolean available,
    double cpuUserPct,
    double cpuSysPct,
    long rssAvgBytes,
    long rssPeakBytes,
    long pssAvgBytes,
    long pssPeakBytes,
    double readMBps,
    double writeMBps,
    int samples) {
  public static final ResourceSummary UNAVAILABLE =
      new ResourceSummary(false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
