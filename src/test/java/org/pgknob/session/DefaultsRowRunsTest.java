package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

class DefaultsRowRunsTest {
  private static TrialResult baseline(int n, double tps) {
    return Trials.ok(
        n, "baseline", "restart", "baseline " + n, Map.of(), Map.of(), tps, 1000 / tps);
  }

  private static TrialResult validation(int n, String label, double tps) {
    return Trials.ok(
        n,
        "validation",
        "restart",
        "validation " + label,
        Map.of(),
        Map.of("shared_buffers", "1GB"),
        tps,
        1000 / tps);
  }

  @Test
  void theDefaultsRowShowsTheRunsTheRatiosPairWithNotTheBaselines() {
    List<TrialResult> baselines = List.of(baseline(1, 2950), baseline(2, 1627), baseline(3, 1576));
    TrialResult a1 = validation(12, "round 1 baseline", 3081);
    TrialResult a2 = validation(15, "round 2 baseline", 3016);
    // Two candidates share each round's run of the defaults: it counts once.
    List<TrialResult[]> pick =
        List.of(
            new TrialResult[] {a1, validation(13, "round 1 pick", 3084)},
            new TrialResult[] {a2, validation(16, "round 2 pick", 3043)});
    List<TrialResult[]> pgtune =
        List.of(
            new TrialResult[] {a1, validation(14, "round 1 pgtune", 2961)},
            new TrialResult[] {a2, validation(17, "round 2 pgtune", 3012)});

    assertEquals(List.of(a1, a2), SessionResults.defaultsRuns(baselines, List.of(pick, pgtune)));
  }

  @Test
  void withoutASuccessfulValidationRunTheDefaultsRowShowsTheBaselines() {
    List<TrialResult> baselines = List.of(baseline(1, 1000), baseline(2, 1010));
    TrialResult failed = Trials.failed(4, "validation", "round 1 baseline", Status.CRASHED);
    List<TrialResult[]> pairs =
        List.<TrialResult[]>of(new TrialResult[] {failed, validation(5, "round 1 pick", 1100)});

    assertEquals(baselines, SessionResults.defaultsRuns(baselines, List.of(pairs)));
    assertEquals(baselines, SessionResults.defaultsRuns(baselines, List.of()));
  }
}
