package org.pgknob.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.pgknob.runs.Summary;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Knob rankings side by side: the sweep's (effect of each knob alone) and the model's (importance
 * in the fitted surrogate). From summary.json; before the session wrote one, the sweep ranking is
 * computed here from the sweep trials as the TPS range each knob spans.
 */
final class ImportanceTable {
  private ImportanceTable() {}

  static ReportModel.Importance build(SessionData data, Baseline baseline) {
    Summary s = data.summary();
    List<Summary.KnobImportance> model =
        s == null || s.modelRanking() == null ? List.of() : s.modelRanking();
    List<Summary.KnobChoice> selection = s == null ? List.of() : s.knobSelection();
    if (s != null && s.sweepRanking() != null && !s.sweepRanking().isEmpty()) {
      return new ReportModel.Importance("summary.json", s.sweepRanking(), model, selection);
    }
    return new ReportModel.Importance(
        "the sweep trials", fromSweeps(data, baseline), model, selection);
  }

  /** Each swept knob's TPS range (best minus worst value) as a share of the baseline's TPS. */
  private static List<Summary.KnobImportance> fromSweeps(SessionData data, Baseline baseline) {
    double base = baseline.mean(Metric.TPS);
    double noise = Num.sd(baseline.values(Metric.TPS));
    List<Summary.KnobImportance> out = new ArrayList<>();
    List<String> knobs = new ArrayList<>();
    for (TrialResult t : data.phase(Phase.SWEEP)) {
      SweepCharts.sweptKnob(t).filter(k -> !knobs.contains(k)).ifPresent(knobs::add);
    }
    if (Double.isNaN(base) || base <= 0) {
      return out;
    }
    for (String knob : knobs) {
      List<Double> tps =
          data.okPhase(Phase.SWEEP).stream()
              .filter(t -> SweepCharts.sweptKnob(t).orElse("").equals(knob))
              .map(Metric.TPS::of)
              .toList();
      if (tps.isEmpty()) {
        continue;
      }
      double range =
          tps.stream().mapToDouble(Double::doubleValue).max().getAsDouble()
              - tps.stream().mapToDouble(Double::doubleValue).min().getAsDouble();
      String verdict =
          noise > 0
              ? Num.f("%.1f%% TPS range, %.1fx the noise", 100 * range / base, range / noise)
              : Num.f("%.1f%% TPS range", 100 * range / base);
      out.add(new Summary.KnobImportance(knob, Num.r(range / base), verdict));
    }
    out.sort(Comparator.comparingDouble(Summary.KnobImportance::importance).reversed());
    return out;
  }
}
