package org.pgknob.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

  Baseline(SessionData data) {
    this.runs = data.okPhase(Phase.BASELINE);
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
