package org.pgknob.trial;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.pgknob.runs.JsonLines;
import org.pgknob.runs.Track;
import org.pgknob.server.ResourceSummary;
import org.pgknob.workload.WorkloadResult;

/**
 * The immutable record of one finished trial: one line of {@code runs/<id>/trials.jsonl}.
 *
 * @param trial 1-based number within the session
 * @param phase the session phase the trial ran in
 * @param track reload or restart (the baseline and sweeps take the track of the knob they set)
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
 * @param timingsSeconds time spent per step: reset, apply, run, total (reset to the run's end), and
 *     for a window run again, quietWait, rerunReset and rerun (its run)
 * @param disturbedWindow the first window, set aside when other processes disturbed it and the
 *     trial ran its window again once the host was quiet; null when the window ran once (and in
 *     records from before pgknob repeated windows): left out of the JSON then
 */
public record TrialResult(
    int trial,
    Phase phase,
    Track track,
    String label,
    Map<String, Object> config,
    Map<String, String> settings,
    Status status,
    String reason,
    WorkloadResult workload,
    ResourceSummary resources,
    Long predictedMemoryBytes,
    Instant startedAt,
    Map<String, Double> timingsSeconds,
    @JsonInclude(JsonInclude.Include.NON_NULL) DisturbedWindow disturbedWindow) {
  @JsonCreator
  public TrialResult {
    config = config == null ? Map.of() : Map.copyOf(config);
    settings = settings == null ? Map.of() : Map.copyOf(settings);
    reason = reason == null ? "" : reason;
    resources = resources == null ? ResourceSummary.UNAVAILABLE : resources;
    timingsSeconds = timingsSeconds == null ? Map.of() : Map.copyOf(timingsSeconds);
  }

  /** A trial whose window ran once. */
  public TrialResult(
      int trial,
      Phase phase,
      Track track,
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
    this(
        trial,
        phase,
        track,
        label,
        config,
        settings,
        status,
        reason,
        workload,
        resources,
        predictedMemoryBytes,
        startedAt,
        timingsSeconds,
        null);
  }

  /** The same trial with its first, disturbed window set aside ({@code null}: it ran once). */
  public TrialResult withDisturbedWindow(DisturbedWindow setAside) {
    return setAside == disturbedWindow ? this : with(status, reason, setAside);
  }

  public boolean isOk() {
    return status == Status.OK && workload != null;
  }

  /**
   * False for a trial that says nothing about its configuration: the server could not be reached
   * and stayed up meanwhile. No optimizer learns from it, as a value or as a failure.
   */
  public boolean informative() {
    return status != Status.UNREACHABLE;
  }

  /** A failure that may have been the server's going away: it crashed or ran over its time. */
  public boolean mayHaveLostTheServer() {
    return status == Status.CRASHED || status == Status.TIMEOUT;
  }

  /**
   * trials.jsonl's reader and writer of trial records, for the session, the report and {@code
   * pgknob optimize} alike: a line is a whole record when it has its number and its phase.
   */
  public static JsonLines<TrialResult> lines(Path file) {
    return new JsonLines<>(file, TrialResult.class, t -> t.trial() >= 1 && t.phase() != null);
  }

  /**
   * A trial that ended before its workload ran, as CRASHED: its reset, configuration or restart
   * could not reach the server.
   */
  public static TrialResult failedBeforeRun(
      TrialRequest request, String reason, Instant startedAt) {
    return new TrialResult(
        request.trial(),
        request.phase(),
        request.track(),
        request.label(),
        request.config(),
        request.settings(),
        Status.CRASHED,
        reason,
        null,
        null,
        request.predictedMemoryBytes(),
        startedAt,
        Map.of());
  }

  /** The same trial, UNREACHABLE: the server was out of reach and stayed up. */
  public TrialResult asUnreachable(String newReason) {
    return withOutcome(Status.UNREACHABLE, newReason);
  }

  /** The same trial, CRASHED: the server went away (and restarted, or never came back up). */
  public TrialResult asCrashed(String newReason) {
    return withOutcome(Status.CRASHED, newReason);
  }

  private TrialResult withOutcome(Status newStatus, String newReason) {
    return with(newStatus, newReason, disturbedWindow);
  }

  private TrialResult with(Status newStatus, String newReason, DisturbedWindow setAside) {
    return new TrialResult(
        trial,
        phase,
        track,
        label,
        config,
        settings,
        newStatus,
        newReason,
        workload,
        resources,
        predictedMemoryBytes,
        startedAt,
        timingsSeconds,
        setAside);
  }
}
