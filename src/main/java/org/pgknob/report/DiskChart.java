package org.pgknob.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.pgknob.space.PgUnit;
import org.pgknob.trial.TrialResult;

/**
 * The least free space of the server's data and WAL disks in each trial's window, against the
 * reserve the disk guardrail keeps: how close each configuration's WAL came to filling the disk.
 */
final class DiskChart {
  static final String ID = "disk";

  private DiskChart() {}

  /** The chart, or empty when no trial read the server's disk (a server on another host). */
  static Optional<ChartModel> build(SessionData data) {
    List<ChartModel.Point> least = new ArrayList<>();
    for (TrialResult t : data.trials()) {
      Long free = t.resources().diskFreeLeastBytes();
      if (t.resources().available() && free != null) {
        least.add(new ChartModel.Point(t.trial(), Num.r(free / Num.MB)));
      }
    }
    if (least.isEmpty()) {
      return Optional.empty();
    }
    long reserve = SessionSafetyRules.of(data).diskReserveBytes();
    int first = data.trials().get(0).trial();
    int last = data.trials().get(data.trials().size() - 1).trial();
    double y = Num.r(reserve / Num.MB);
    List<ChartModel.Series> series =
        List.of(
            new ChartModel.Series(
                "least free space in the window", "primary", ChartModel.Style.POINTS, least),
            new ChartModel.Series(
                "reserve: " + PgUnit.readableBytes(reserve),
                "limit",
                ChartModel.Style.LINE,
                List.of(new ChartModel.Point(first, y), new ChartModel.Point(last, y))));
    return Optional.of(
        AxisFit.fit(
            new ChartModel(
                ID,
                "Free space on the server's disk per trial, against the reserve",
                "The least free space of the server's data and WAL disks in each trial's measured"
                    + " window (a configuration's WAL grows with max_wal_size until a checkpoint"
                    + " recycles it). The red line is the reserve of the safety rules: a trial"
                    + " whose disk falls under it is stopped by the disk guard.",
                ChartModel.Axis.linear("trial number"),
                new ChartModel.Axis("free space (MB)", false, List.of(), 0.0, null),
                series,
                List.of(),
                List.of())));
  }
}
