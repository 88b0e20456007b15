package org.pgknob.workload.driver;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.WorkloadResult;

/**
 * What one {@link ClosedLoopDriver} run measured, before a workload adds its own figures.
 *
 * @param windowSeconds the measured window's length as it ran
 * @param figures the clients' counts and latencies over the window
 * @param timeline one entry per second of the whole run
 * @param checkpoint the window's deferred-work account
 * @param driverCpuSeconds CPU this process used during the window (the driver's own load)
 * @param statsFlushed whether the clients could publish their statistics at each boundary
 */
public record DriverRun(
    double windowSeconds,
    WindowFigures figures,
    List<SecondSample> timeline,
    CheckpointAccount checkpoint,
    double driverCpuSeconds,
    boolean statsFlushed) {

  /**
   * The workload's result: the driver's figures, {@code tpcc} (null for a workload without them)
   * and {@code extra} after the driver's own (users, ramp-up, CPU).
   */
  public WorkloadResult result(
      ClosedLoopDriver.Plan plan, TpccFigures tpcc, Map<String, Double> extra) {
    Map<String, Double> all = new LinkedHashMap<>();
    all.put("users", (double) plan.users());
    all.put("rampupSeconds", (double) plan.rampupSeconds());
    all.put("driverCpuSeconds", driverCpuSeconds);
    all.put("statsFlushed", statsFlushed ? 1.0 : 0.0);
    all.putAll(extra);
    return new WorkloadResult(
        windowSeconds,
        figures.committed(),
        figures.errors(),
        figures.committed() / windowSeconds,
        figures.committed() / (windowSeconds + checkpoint.afterWindowSeconds()),
        figures.overall(),
        timeline,
        checkpoint,
        all,
        tpcc);
  }
}
