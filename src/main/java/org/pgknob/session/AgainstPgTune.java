package org.pgknob.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.pgknob.measure.PairedRatio;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;

/**
 * A validated candidate against the PGTune-style configuration: in every validation round that ran
 * both successfully, the pair (PGTune-style's run, the candidate's run), read from the trials'
 * labels as the ratios to the defaults are. The one source of this figure: the results row records
 * it in summary.json and the verdict reads it from there, so the two never print different pairings
 * of the same comparison.
 */
final class AgainstPgTune {
  static final String PGTUNE = "pgtune";

  private AgainstPgTune() {}

  /**
   * The ratio candidate / PGTune-style on {@code objective}, its interval pooled with the session's
   * run noise; empty with fewer than 2 pairs or a metric the workload did not report.
   *
   * @param measuredAs the name the candidate's validation runs carry (a twin's: the earlier pick's)
   */
  static Optional<Summary.Ratio> of(String measuredAs, List<TrialResult> trials, Goal objective) {
    List<double[]> pairs = new ArrayList<>();
    for (TrialResult[] p : ValidationRounds.runsByRound(PGTUNE, measuredAs, trials)) {
      if (p[0] != null && p[1] != null && p[0].isOk() && p[1].isOk()) {
        pairs.add(ValidationStats.pair(p[0], p[1], objective));
      }
    }
    if (pairs.size() < 2 || !ValidationStats.measured(pairs)) {
      return Optional.empty();
    }
    PairedRatio r = ValidationNoise.ratio(pairs, trials, objective);
    return Optional.of(new Summary.Ratio(r.estimate(), r.low(), r.high(), r.pairs()));
  }
}
