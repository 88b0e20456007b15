package org.pgknob.workload;

/** Latency figures of a set of calls, in milliseconds. */
public record LatencySummary(
    long count, double avgMs, double p50Ms, double p95Ms, double p99Ms, double maxMs) {
  public static final LatencySummary NONE = new LatencySummary(0, 0, 0, 0, 0, 0);
}
