package org.pgknob.trial;

import java.time.Instant;
import java.util.Map;
import org.pgknob.server.ResourceSummary;
import org.pgknob.workload.WorkloadResult;

/**
 * The immutable record of one finished trial: one line of {@code runs/<id>/trials.jsonl}.
 *
 * @param trial 1-based number within the session
 * @param phase the session phase the trial ran in
 * @param track reload or restart (the baseline and sweeps use "reload" or "restart" by the knob)
 * @param label a name for people: "baseline", "sweep shared_buffers=1024MB", "bayes 7", "best
 *     restart/tps (B)"
 * @param config the configuration's values in each knob's unit (absent: server default)
 * @param settings the same as PostgreSQL takes them (name to value with unit)
 * @param status how it ended
 * @param reason why it failed, or empty
 * @param workload what the workload measured (null when it did not run)
 * @param resources the server's resource use over the window
 * @param predictedMemoryBytes the safety rules' memory prediction, or null
 * @param startedAt when the trial began
 * @param timingsSeconds time spent per step: reset, apply, warmup, window, checkpoint, total
 */
public record TrialResult(
    int trial,
    Phase phase,
    String track,
    String label,
    Map<String, Object> config,
    Map<String, String> settings,
    Status status,
    String reason,
    WorkloadResult workload,
    ResourceSummary resources,
    Long predictedMemoryBytes,
    Instant startedAt,
    Map<String, Double> timingsSeconds) {
  public TrialResult {
    config = config == null ? Map.of() : Map.copyOf(config);
    settings = settings == null ? Map.of() : Map.copyOf(settings);
    reason = reason == null ? "" : reason;
    resources = resources == null ? ResourceSummary.UNAVAILABLE : resources;
    timingsSeconds = timingsSeconds == null ? Map.of() : Map.copyOf(timingsSeconds);
  }

  public boolean isOk() {
    return status == Status.OK && workload != null;
  }
}
