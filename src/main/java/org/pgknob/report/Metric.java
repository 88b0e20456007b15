package org.pgknob.report;

import java.util.function.ToDoubleFunction;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.TpccFigures;

/**
 * A figure of a successful trial the charts plot: the seed study's metrics (throughput, latency,
 * CPU, memory, disk) read from a {@link TrialResult}.
 */
enum Metric {
  TPS("TPS", "transactions/s", false, t -> t.workload().tps()),
  NOPM(
      "NOPM",
      "new orders/min",
      false,
      t -> t.workload().tpccFigures().map(TpccFigures::nopm).orElse(Double.NaN)),
  LATENCY_AVG("avg latency", "ms", false, t -> reported(t.workload().overall().avgMs())),
  LATENCY_P95("p95 latency", "ms", false, t -> reported(t.workload().overall().p95Ms())),
  LATENCY_P99("p99 latency", "ms", false, t -> reported(t.workload().overall().p99Ms())),
  CPU_USER("user CPU", "%", true, t -> t.resources().cpuUserPct()),
  CPU_SYS("system CPU", "%", true, t -> t.resources().cpuSysPct()),
  CPU_TOTAL("total CPU", "%", true, t -> t.resources().cpuUserPct() + t.resources().cpuSysPct()),
  RSS("summed RSS", "MB", true, t -> t.resources().rssAvgBytes() / Num.MB),
  PSS("summed PSS", "MB", true, t -> t.resources().pssAvgBytes() / Num.MB),
  DISK_READ("disk read", "MB/s", true, t -> t.resources().readMBps()),
  DISK_WRITE("disk write", "MB/s", true, t -> t.resources().writeMBps());

  final String label;
  final String unit;
  final boolean fromSampler;
  private final ToDoubleFunction<TrialResult> read;

  Metric(String label, String unit, boolean fromSampler, ToDoubleFunction<TrialResult> read) {
    this.label = label;
    this.unit = unit;
    this.fromSampler = fromSampler;
    this.read = read;
  }

  /**
   * A latency as the trial recorded it, or NaN for 0: a workload command that prints {@code
   * {"value": N}} alone records 0 ms, which the report drew as a latency of 0 (a flat convergence
   * chart, 0.000 ms in the trials' table).
   */
  private static double reported(double ms) {
    return ms > 0 ? ms : Double.NaN;
  }

  /** The value, or NaN when the trial did not measure it (failed, or a remote server's CPU). */
  double of(TrialResult t) {
    if (!t.isOk() || (fromSampler && !t.resources().available())) {
      return Double.NaN;
    }
    return read.applyAsDouble(t);
  }
}
