package org.pgknob.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Every trial's TPS in the order the trials ran, the phases shaded and the runs of the defaults
 * joined by a line: a level the defaults lose over the session is the machine drifting (a cache
 * warming, a neighbour, a filling disk), not any configuration.
 */
final class RunOrderChart {
  static final String ID = "run-order";

  private RunOrderChart() {}

  /** The chart, or empty when no trial succeeded. */
  static Optional<ChartModel> build(SessionData data, Baseline baseline) {
    List<TrialResult> ok = data.okTrials();
    if (ok.isEmpty()) {
      return Optional.empty();
    }
    Map<String, List<ChartModel.Point>> groups = new LinkedHashMap<>();
    for (String key :
        List.of(
            Phase.BASELINE.label(),
            Phase.PGTUNE.label(),
            Track.RELOAD.label(),
            Track.RESTART.label(),
            Phase.VALIDATION.label())) {
      groups.put(key, new ArrayList<>());
    }
    List<ChartModel.Point> defaults = new ArrayList<>();
    for (TrialResult t : ok) {
      ChartModel.Point p = new ChartModel.Point(t.trial(), Num.r(Metric.TPS.of(t)));
      groups.computeIfAbsent(Tracks.colourKey(t), k -> new ArrayList<>()).add(p);
      if (Tracks.isDefaults(t)) {
        defaults.add(p);
      }
    }
    List<ChartModel.Series> series = new ArrayList<>();
    series.add(
        new ChartModel.Series(
            "runs of the defaults (drift)", "baseline", ChartModel.Style.LINE, defaults));
    groups.forEach(
        (key, points) -> {
          if (!points.isEmpty()) {
            series.add(new ChartModel.Series(key, key, ChartModel.Style.POINTS, points));
          }
        });
    return Optional.of(
        AxisFit.fit(
            new ChartModel(
                ID,
                "The drift: every trial's TPS in run order",
                caption(data, defaults),
                ChartModel.Axis.linear("trial number (run order)"),
                ChartModel.Axis.linear("window TPS (transactions/s)"),
                series,
                baseline.bandOrPooled(Metric.TPS).stream().toList(),
                phases(data.trials()))));
  }

  /** One shaded range per stretch of a phase; reference and race runs sit in the Bayesian one. */
  static List<ChartModel.Marker> phases(List<TrialResult> trials) {
    List<ChartModel.Marker> out = new ArrayList<>();
    String current = null;
    int first = 0;
    int last = 0;
    for (TrialResult t : trials) {
      String phase = phaseOf(t);
      if (!phase.equals(current)) {
        if (current != null) {
          out.add(range(current, first, last));
        }
        current = phase;
        first = t.trial();
      }
      last = t.trial();
    }
    if (current != null) {
      out.add(range(current, first, last));
    }
    return out;
  }

  private static String phaseOf(TrialResult t) {
    if (t.phase() == null) {
      return "";
    }
    return t.phase() == Phase.REFERENCE || t.phase() == Phase.RACE
        ? Phase.BAYES.label()
        : t.phase().label();
  }

  private static ChartModel.Marker range(String phase, int first, int last) {
    return new ChartModel.Marker(phase + " phase", first - 0.5, last + 0.5, phase);
  }

  private static String caption(SessionData data, List<ChartModel.Point> defaults) {
    StringBuilder c =
        new StringBuilder(
            "Each point is one trial's TPS over its measured window, in the order the trials ran;"
                + " the shading marks the phases, the grey band the baseline's noise. The line"
                + " joins every run of the defaults (baseline, reference and validation runs):"
                + " where it moves beyond the band, the machine drifted, not the settings.");
    Optional<Double> drift = driftRange(data);
    if (drift.isPresent()) {
      c.append(
          Num.f(
              " The drift model puts the defaults' level %.0f%% apart between its highest and"
                  + " lowest point.",
              100 * drift.get()));
    } else if (defaults.size() >= 2) {
      double first = defaults.get(0).y();
      double last = defaults.get(defaults.size() - 1).y();
      c.append(
          Num.f(
              " The defaults ran at %.0f TPS first and %.0f TPS last (%+.0f%%).",
              first, last, first > 0 ? 100 * (last / first - 1) : 0.0));
    }
    return c.toString();
  }

  private static Optional<Double> driftRange(SessionData data) {
    if (data.summary() == null) {
      return Optional.empty();
    }
    return data.summary().measurements().stream()
        .filter(m -> m.objective() == Goal.TPS && m.references().size() >= 2)
        .map(Summary.Measurement::driftRange)
        .findFirst();
  }
}
