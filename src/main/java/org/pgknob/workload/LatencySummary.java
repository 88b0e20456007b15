package org.pgknob.workload;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Latency figures of a set of calls, in milliseconds.
 *
 * @param percentiles a compact percentile table of the HdrHistogram (minimum, 50% ... 99.99%,
 *     maximum) for the report's latency distribution plot; recorded for a run's overall latency,
 *     empty for each transaction type and in trials written before pgknob kept it
 */
public record LatencySummary(
    long count,
    double avgMs,
    double p50Ms,
    double p95Ms,
    double p99Ms,
    double maxMs,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Percentile> percentiles) {
  public static final LatencySummary NONE = new LatencySummary(0, 0, 0, 0, 0, 0);

  public LatencySummary {
    percentiles = percentiles == null ? List.of() : List.copyOf(percentiles);
  }

  /** Figures without a percentile table: a transaction type's, or a trial of an older session. */
  public LatencySummary(
      long count, double avgMs, double p50Ms, double p95Ms, double p99Ms, double maxMs) {
    this(count, avgMs, p50Ms, p95Ms, p99Ms, maxMs, List.of());
  }

  /**
   * The latency at or below which {@code percentile} per cent of the calls finished.
   *
   * @param percentile 0 (the fastest call) to 100 (the slowest)
   * @param ms the latency
   */
  public record Percentile(double percentile, double ms) {}
}
