package org.pgknob.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.SecondSample;

/**
 * TPS per second within chosen trials: the first baseline run, the best trial, and every trial the
 * memory guardrail stopped. The measured window, the checkpoint after it and a guardrail trip are
 * marked; all share one y range so their levels compare at a glance.
 */
final class TimelineCharts {
  private TimelineCharts() {}

  private record Pick(String id, String title, TrialResult trial) {}

  private static String guardName(Status status) {
    return status == Status.DISK_GUARD ? "disk guard" : "memory guard";
  }

  static List<ChartModel> build(SessionData data) {
    List<Pick> picks = new ArrayList<>();
    data.okPhase(Phase.BASELINE).stream()
        .filter(t -> !t.workload().timeline().isEmpty())
        .findFirst()
        .ifPresent(t -> picks.add(new Pick("timeline-baseline", "baseline", t)));
    best(data).ifPresent(t -> picks.add(new Pick("timeline-best", "best TPS", t)));
    for (TrialResult t : data.trials()) {
      if (t.status() != null
          && t.status().guardTrip()
          && t.workload() != null
          && !t.workload().timeline().isEmpty()) {
        picks.add(new Pick("timeline-trial-" + t.trial(), guardName(t.status()), t));
      }
    }
    double yMax =
        picks.stream()
            .flatMap(p -> p.trial.workload().timeline().stream())
            .mapToDouble(SecondSample::committed)
            .max()
            .orElse(0);
    List<ChartModel> out = new ArrayList<>();
    for (Pick p : picks) {
      out.add(chart(p, Num.r(yMax * 1.1)));
    }
    return out;
  }

  /** The searching trial with the highest TPS that has a timeline. */
  private static Optional<TrialResult> best(SessionData data) {
    return data.trials().stream()
        .filter(t -> t.isOk() && Tracks.searching(t) && !t.workload().timeline().isEmpty())
        .max(Comparator.comparingDouble(t -> t.workload().tps()));
  }

  private static ChartModel chart(Pick pick, double yMax) {
    TrialResult t = pick.trial;
    List<SecondSample> timeline = t.workload().timeline();
    List<ChartModel.Point> points = new ArrayList<>();
    for (SecondSample s : timeline) {
      points.add(new ChartModel.Point(s.second(), s.committed()));
    }
    List<ChartModel.Marker> markers = new ArrayList<>();
    int firstMeasured = -1;
    int lastMeasured = -1;
    for (SecondSample s : timeline) {
      if (s.measured()) {
        firstMeasured = firstMeasured < 0 ? s.second() : firstMeasured;
        lastMeasured = s.second();
      }
    }
    int lastSecond = timeline.get(timeline.size() - 1).second();
    if (firstMeasured >= 0) {
      markers.add(new ChartModel.Marker("measured window", firstMeasured, (double) lastMeasured));
    }
    CheckpointAccount cp = t.workload().checkpoint();
    if (firstMeasured >= 0 && lastSecond > lastMeasured && cp.afterWindowSeconds() > 0) {
      markers.add(
          new ChartModel.Marker(
              "checkpoint after the window", lastMeasured + 1, (double) lastSecond));
    }
    if (t.status() != null && t.status().guardTrip()) {
      markers.add(
          new ChartModel.Marker(guardName(t.status()) + " stopped the trial", lastSecond, null));
    }
    StringBuilder caption =
        new StringBuilder(
            Num.f(
                "Trial %d (%s): committed transactions per second. %d checkpoint%s and %d"
                    + " autovacuum run%s inside the measured window.",
                t.trial(),
                t.label(),
                cp.checkpointsInWindow(),
                cp.checkpointsInWindow() == 1 ? "" : "s",
                cp.autovacuumsInWindow(),
                cp.autovacuumsInWindow() == 1 ? "" : "s"));
    if (cp.beforeWindowSeconds() > 0) {
      caption.append(
          Num.f(" A CHECKPOINT before the window took %.1f s.", cp.beforeWindowSeconds()));
    }
    if (cp.afterWindowSeconds() > 0) {
      caption.append(
          Num.f(
              " The checkpoint after it took %.1f s and wrote %d buffers.",
              cp.afterWindowSeconds(), cp.afterWindowBuffers()));
    }
    if (t.status() != null && t.status().guardTrip()) {
      caption.append(" Stopped: ").append(t.reason()).append('.');
    }
    return AxisFit.fit(
        new ChartModel(
            pick.id,
            Num.f("Timeline of trial %d: %s", t.trial(), pick.title),
            caption.toString(),
            ChartModel.Axis.linear("second of the run (s)"),
            new ChartModel.Axis("TPS (transactions/s)", false, List.of(), 0.0, yMax),
            List.of(
                new ChartModel.Series(
                    "TPS per second", Tracks.colourKey(t), ChartModel.Style.LINE, points)),
            List.of(),
            markers));
  }
}
