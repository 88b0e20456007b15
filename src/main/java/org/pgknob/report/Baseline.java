package org.pgknob.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The repeated default-settings trials: the noise level every chart shows as a band, so a reader
 * sees at once whether a difference is larger than run-to-run variation.
 */
final class Baseline {
  /** Half-width of the noise band in standard deviations (about 95% of single runs). */
  static final double BAND_SDS = 2.0;

  private final List<TrialResult> runs;
  private final Summary summary;

  Baseline(SessionData data) {
    this.runs = data.okPhase(Phase.BASELINE);
    this.summary = data.summary();
  }

  /**
   * The run-to-run coefficient of variation of {@code m}: pooled over every repeated configuration
   * when summary.json has it, else the baseline runs' own; empty when neither is known. Only the
   * workload's throughput and latency have one.
   */
  OptionalDouble runCv(Metric m) {
    Goal objective =
        switch (m) {
          case TPS, NOPM -> Goal.TPS;
          case LATENCY_AVG, LATENCY_P95 -> Goal.LATENCY;
          default -> null;
        };
    if (objective == null) {
      return OptionalDouble.empty();
    }
    if (summary != null) {
      for (Summary.Measurement s : summary.measurements()) {
        if (objective == s.objective() && s.runNoiseCv() > 0) {
          return OptionalDouble.of(s.runNoiseCv());
        }
      }
    }
    List<Double> xs = values(m);
    double mean = Num.mean(xs);
    return xs.size() >= 2 && mean > 0
        ? OptionalDouble.of(Num.sd(xs) / mean)
        : OptionalDouble.empty();
  }

  /**
   * The noise band of {@code m}: the baseline's mean ± 2 sd when it ran twice or more, else the
   * pooled noise around its one run; empty when no noise level is known.
   */
  Optional<ChartModel.Band> bandOrPooled(Metric m) {
    Optional<ChartModel.Band> own = band(m);
    if (own.isPresent()) {
      return own;
    }
    List<Double> xs = values(m);
    OptionalDouble cv = runCv(m);
    if (xs.isEmpty() || cv.isEmpty() || !(cv.getAsDouble() > 0)) {
      return Optional.empty();
    }
    double mean = Num.mean(xs);
    double half = BAND_SDS * cv.getAsDouble() * mean;
    return Optional.of(
        new ChartModel.Band(
            Num.f("baseline %s ± 2 sd (pooled noise)", m.label),
            Num.r(mean - half),
            Num.r(mean + half)));
  }

  int runs() {
    return runs.size();
  }

  List<Integer> trialNumbers() {
    return runs.stream().map(TrialResult::trial).toList();
  }

  List<Double> values(Metric m) {
    List<Double> out = new ArrayList<>();
    for (TrialResult t : runs) {
      double v = m.of(t);
      if (!Double.isNaN(v)) {
        out.add(v);
      }
    }
    return out;
  }

  double mean(Metric m) {
    return Num.mean(values(m));
  }

  /** Mean ± 2 sd of the baseline runs; empty with fewer than two runs (no spread to show). */
  Optional<ChartModel.Band> band(Metric m) {
    List<Double> xs = values(m);
    if (xs.size() < 2) {
      return Optional.empty();
    }
    double mean = Num.mean(xs);
    double half = BAND_SDS * Num.sd(xs);
    return Optional.of(
        new ChartModel.Band(
            Num.f("baseline %s ± 2 sd (%d runs)", m.label, xs.size()),
            Num.r(mean - half),
            Num.r(mean + half)));
  }
}
