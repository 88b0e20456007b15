package org.pgknob.session;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.pgknob.runs.Track;
import org.pgknob.server.ResourceSummary;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.WorkloadResult;

/** Trial records with chosen figures, for tests of code that reads trials.jsonl. */
public final class Trials {
  private Trials() {}

  public static TrialResult ok(
      int trial,
      String phase,
      String track,
      String label,
      Map<String, Object> config,
      Map<String, String> settings,
      double tps,
      double latencyAvgMs) {
    WorkloadResult w =
        new WorkloadResult(
            10,
            Math.round(tps * 10),
            0,
            tps,
            tps * 0.95,
            new LatencySummary(
                Math.round(tps * 10),
                latencyAvgMs,
                latencyAvgMs * 0.9,
                latencyAvgMs * 2,
                latencyAvgMs * 3,
                latencyAvgMs * 5),
            List.of(),
            null,
            Map.of(),
            new TpccFigures(tps * 60, tps * 60 * 0.45, 0, List.of()));
    return new TrialResult(
        trial,
        Phase.of(phase),
        Track.of(track),
        label,
        config,
        settings,
        Status.OK,
        "",
        w,
        null,
        null,
        Instant.parse("2026-11-29T22:10:00Z").plusSeconds(30L * trial),
        Map.of("total", 30.0, "window", 10.0));
  }

  /** {@code trial} with the host's CPU figures: other processes used {@code foreignCores}. */
  public static TrialResult withForeignCpu(TrialResult trial, double foreignCores, int hostCores) {
    return withResources(trial, foreignCores, hostCores, 0);
  }

  /**
   * {@code trial} whose disk took {@code writesPerSec} synchronous 8 kB writes during the window.
   */
  public static TrialResult withDiskRate(TrialResult trial, double writesPerSec) {
    return withResources(trial, 0, 2, writesPerSec);
  }

  private static TrialResult withResources(
      TrialResult trial, double foreignCores, int hostCores, double diskWritesPerSec) {
    return new TrialResult(
        trial.trial(),
        trial.phase(),
        trial.track(),
        trial.label(),
        trial.config(),
        trial.settings(),
        trial.status(),
        trial.reason(),
        trial.workload(),
        new ResourceSummary(
            true,
            80,
            20,
            1L << 30,
            1L << 30,
            1L << 29,
            1L << 29,
            1,
            2,
            10,
            foreignCores,
            foreignCores + 0.3,
            hostCores,
            diskWritesPerSec,
            null),
        trial.predictedMemoryBytes(),
        trial.startedAt(),
        trial.timingsSeconds());
  }

  /**
   * A run of the defaults whose measured window had these per-second TPS (its mean is the run's
   * TPS), taking {@code totalSeconds} in all.
   */
  public static TrialResult defaultsWithTimeline(
      int trial, double[] perSecond, double totalSeconds) {
    List<org.pgknob.workload.SecondSample> timeline = new java.util.ArrayList<>();
    double sum = 0;
    for (int i = 0; i < perSecond.length; i++) {
      timeline.add(new org.pgknob.workload.SecondSample(i + 1, true, Math.round(perSecond[i]), 4));
      sum += Math.round(perSecond[i]);
    }
    double tps = sum / perSecond.length;
    WorkloadResult w =
        new WorkloadResult(
            perSecond.length,
            Math.round(sum),
            0,
            tps,
            tps,
            new LatencySummary(Math.round(sum), 4, 3.6, 8, 12, 20),
            timeline,
            null,
            Map.of(),
            null);
    return new TrialResult(
        trial,
        Phase.BASELINE,
        Track.RELOAD,
        "baseline " + trial,
        Map.of(),
        Map.of(),
        Status.OK,
        "",
        w,
        null,
        null,
        Instant.parse("2026-11-29T22:10:00Z").plusSeconds(60L * trial),
        Map.of("total", totalSeconds, "window", (double) perSecond.length));
  }

  /** A trial following {@code step} of a plan, with the given figures. */
  public static TrialResult of(Step step, double tps, double latencyAvgMs) {
    return of(step, Map.of(), tps, latencyAvgMs);
  }

  /**
   * A trial following {@code step} of a plan (its number, phase, track and label) that ran {@code
   * settings} and measured these figures: how a test logs the plan's next step.
   */
  public static TrialResult of(
      Step step, Map<String, String> settings, double tps, double latencyAvgMs) {
    return ok(
        step.trial(),
        step.phase().label(),
        step.track().label(),
        step.label(),
        Map.of(),
        settings,
        tps,
        latencyAvgMs);
  }

  /** {@code trial} as if it took {@code totalSeconds} from its reset to its checkpoint. */
  public static TrialResult taking(TrialResult trial, double totalSeconds) {
    return withTimings(trial, Map.of("total", totalSeconds, "window", 10.0));
  }

  /** {@code trial} with these step timings (total, quietWait, rerun, ...). */
  public static TrialResult withTimings(TrialResult trial, Map<String, Double> timingsSeconds) {
    return new TrialResult(
        trial.trial(),
        trial.phase(),
        trial.track(),
        trial.label(),
        trial.config(),
        trial.settings(),
        trial.status(),
        trial.reason(),
        trial.workload(),
        trial.resources(),
        trial.predictedMemoryBytes(),
        trial.startedAt(),
        timingsSeconds);
  }

  public static TrialResult failed(int trial, String phase, String label, Status status) {
    return new TrialResult(
        trial,
        Phase.of(phase),
        Track.RESTART,
        label,
        Map.of("shared_buffers", 99999L),
        Map.of(),
        status,
        "would not start",
        null,
        null,
        null,
        Instant.parse("2026-11-29T22:10:00Z"),
        Map.of());
  }
}
