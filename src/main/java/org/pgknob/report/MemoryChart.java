package org.pgknob.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.pgknob.space.PgUnit;
import org.pgknob.trial.TrialResult;

/**
 * The server's memory per trial against what the safety rules predicted and the limit they hold it
 * to: summed PSS (shared memory counted once: what is really resident), summed RSS (shared memory
 * once per process: what ps and pidstat users add up), both at their peak in the window.
 */
final class MemoryChart {
  static final String ID = "memory";

  private MemoryChart() {}

  /** The limit the safety rules set: a share of the machine's RAM, named for people. */
  record Limit(double fraction, long ramBytes) {
    double mb() {
      return fraction * ramBytes / Num.MB;
    }

    String label() {
      return Num.f(
          "limit: %.0f%% of RAM (%s of %s)",
          100 * fraction,
          PgUnit.readableBytes(fraction * ramBytes),
          PgUnit.readableBytes(ramBytes));
    }
  }

  /** The chart, or empty when no trial has memory figures or a prediction. */
  static Optional<ChartModel> build(SessionData data) {
    List<ChartModel.Point> pss = new ArrayList<>();
    List<ChartModel.Point> rss = new ArrayList<>();
    List<ChartModel.Point> predicted = new ArrayList<>();
    for (TrialResult t : data.trials()) {
      if (t.resources().available() && t.resources().pssPeakBytes() > 0) {
        pss.add(new ChartModel.Point(t.trial(), Num.r(t.resources().pssPeakBytes() / Num.MB)));
        rss.add(new ChartModel.Point(t.trial(), Num.r(t.resources().rssPeakBytes() / Num.MB)));
      }
      if (t.predictedMemoryBytes() != null && t.predictedMemoryBytes() > 0) {
        predicted.add(new ChartModel.Point(t.trial(), Num.r(t.predictedMemoryBytes() / Num.MB)));
      }
    }
    if (pss.isEmpty() && predicted.isEmpty()) {
      return Optional.empty();
    }
    List<ChartModel.Series> series = new ArrayList<>();
    series.add(new ChartModel.Series("summed PSS (peak)", "primary", ChartModel.Style.POINTS, pss));
    series.add(
        new ChartModel.Series("summed RSS (peak)", "secondary", ChartModel.Style.POINTS, rss));
    series.add(
        new ChartModel.Series(
            "predicted by the safety rules", "tertiary", ChartModel.Style.POINTS, predicted));
    Optional<Limit> limit = limit(data);
    String limitText = "The session's memory limit is not recorded.";
    if (limit.isPresent()) {
      int first = data.trials().get(0).trial();
      int last = data.trials().get(data.trials().size() - 1).trial();
      double y = Num.r(limit.get().mb());
      series.add(
          new ChartModel.Series(
              limit.get().label(),
              "limit",
              ChartModel.Style.LINE,
              List.of(new ChartModel.Point(first, y), new ChartModel.Point(last, y))));
      limitText =
          "The red line is the "
              + limit.get().label()
              + ": a configuration predicted above it is not run, a trial whose PSS passes it is"
              + " stopped by the memory guard.";
    }
    return Optional.of(
        AxisFit.fit(
            new ChartModel(
                ID,
                "Server memory per trial, against the prediction and the limit",
                "Summed PSS counts shared memory once (what is really resident); summed RSS counts"
                    + " it once per process, as adding up ps or pidstat does. Both are the peak of"
                    + " the window; the prediction is the safety rules' worst case (only trials"
                    + " that needed one have it). "
                    + limitText,
                ChartModel.Axis.linear("trial number"),
                new ChartModel.Axis("memory (MB)", false, List.of(), 0.0, null),
                series,
                List.of(),
                List.of())));
  }

  /**
   * The limit from session.json: the machine's RAM times the rules file's limit fraction (the
   * session's own file when it named one and it still reads, else the built-in rules).
   */
  static Optional<Limit> limit(SessionData data) {
    long ram = data.session().path("machine").path("ramBytes").asLong(0);
    if (ram <= 0 && data.summary() != null && data.summary().machine() != null) {
      ram = data.summary().machine().ramBytes();
    }
    if (ram <= 0) {
      return Optional.empty();
    }
    return Optional.of(new Limit(fraction(data), ram));
  }

  private static double fraction(SessionData data) {
    return SessionSafetyRules.of(data).limitFraction();
  }
}
