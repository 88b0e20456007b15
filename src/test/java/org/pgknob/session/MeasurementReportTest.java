package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.runs.Track;
import org.pgknob.trial.TrialResult;

class MeasurementReportTest {
  private static TrialResult defaults(int n, double tps) {
    return Trials.ok(n, "baseline", "reload", "baseline " + n, Map.of(), Map.of(), tps, 5);
  }

  @Test
  void runsThatEachDifferByMoreThanHalfStopTheSessionNamingTheCauses() {
    List<TrialResult> wild =
        List.of(
            defaults(1, 1000), Trials.withForeignCpu(defaults(2, 1600), 1.5, 2), defaults(3, 900));
    PgknobException e =
        assertThrows(PgknobException.class, () -> MeasurementReport.checkStable(wild));
    assertTrue(e.getMessage().contains("too unstable"), e.getMessage());
    assertTrue(e.getMessage().contains("1000, 1600, 900 TPS"), e.getMessage());
    assertTrue(e.getMessage().contains("trial 2:"), e.getMessage());
  }

  @Test
  void aLoneSlowRunThatOtherProcessesDisturbedIsLeftOutOfTheStabilityCheck() {
    List<TrialResult> runs =
        List.of(
            defaults(1, 821), Trials.withForeignCpu(defaults(2, 464), 0.8, 2), defaults(3, 803));
    String note = MeasurementReport.checkStable(runs).orElseThrow();
    assertTrue(note.contains("trial 2 (464 TPS)"), note);
    assertTrue(note.contains("other processes used 0.8 of 2 cores"), note);
  }

  @Test
  void twoDisturbedRunsOrUndisturbedRunsThatDisagreeStillStopTheSession() {
    List<TrialResult> twice =
        List.of(
            Trials.withForeignCpu(defaults(1, 1000), 0.8, 2),
            Trials.withForeignCpu(defaults(2, 400), 0.8, 2),
            defaults(3, 1000));
    assertThrows(PgknobException.class, () -> MeasurementReport.checkStable(twice));
    List<TrialResult> disagree =
        List.of(
            defaults(1, 1000), Trials.withForeignCpu(defaults(2, 400), 0.8, 2), defaults(3, 1700));
    assertThrows(PgknobException.class, () -> MeasurementReport.checkStable(disagree));
  }

  @Test
  void aSteadyStartNeedsNoNote() {
    assertTrue(
        MeasurementReport.checkStable(
                List.of(defaults(1, 1000), defaults(2, 1100), defaults(3, 1050)))
            .isEmpty());
  }

  @Test
  void oneSteadyStepIsEnough() {
    assertDoesNotThrow(
        () ->
            MeasurementReport.checkStable(
                List.of(defaults(1, 1000), defaults(2, 1100), defaults(3, 1700))));
  }

  @Test
  void theDetectableEffectShrinksWithBudgetAndIsPrintedWithItsOptions() {
    List<TrialResult> trials = List.of(defaults(1, 1000), defaults(2, 1080), defaults(3, 950));
    SessionPlan plan = baselinesAndThreeRounds();
    String line =
        MeasurementReport.detectableEffect(
                trials, plan, TinyInputs.of("12m", List.of("restart")), 30)
            .orElseThrow();
    assertTrue(line.startsWith("with 2 s windows and the budget 12m (3 validation pairs)"), line);
    int now = percent(line, "gains under ");
    int doubled = percent(line, "twice the budget brings that to ");
    assertTrue(doubled < now, line);
    assertTrue(MeasurementReport.lines(trials).contains("pooled from 3 runs of 1 configurations"));
  }

  @Test
  void twiceTheBudgetLowersTheDetectableGainWhenTrialsAreShorterThanTheWindow() {
    // An external workload command times itself: its trials (1 s here) can be shorter than the
    // window, and twice the budget must still mean twice the validation pairs.
    List<TrialResult> trials = List.of(defaults(1, 1000), defaults(2, 1080), defaults(3, 950));
    SessionPlan plan = baselinesAndThreeRounds();
    String line =
        MeasurementReport.detectableEffect(trials, plan, TinyInputs.of("40", List.of("restart")), 1)
            .orElseThrow();
    int now = percent(line, "gains under ");
    int doubled = percent(line, "twice the budget brings that to ");
    assertTrue(doubled < now, line);
  }

  /** 3 baseline runs, no search, 3 validation rounds of one restart pick. */
  private static SessionPlan baselinesAndThreeRounds() {
    return new SessionPlan(
        3,
        List.of(),
        List.of(),
        List.of(new SessionPlan.Validation("restart/tps", Track.RESTART)),
        3);
  }

  private static int percent(String line, String after) {
    int i = line.indexOf(after) + after.length();
    return Integer.parseInt(line.substring(i, line.indexOf('%', i)));
  }

  @Test
  void theDriftLineGivesTheQuietRunsMoveBesideAllRunsWhenABuildTouchedSomeOfThem() {
    List<TrialResult> runs =
        List.of(
            defaults(1, 2866),
            Trials.withForeignCpu(defaults(2, 1854), 0.87, 2),
            Trials.withForeignCpu(defaults(3, 1782), 0.85, 2),
            defaults(4, 2900),
            defaults(5, 2950));
    String lines = MeasurementReport.lines(runs);
    assertTrue(lines.contains("over 3 quiet runs ("), lines);
    assertTrue(lines.contains("over all 5, 2 disturbed by other processes)"), lines);

    String quiet =
        MeasurementReport.lines(List.of(defaults(1, 2866), defaults(2, 2900), defaults(3, 2950)));
    assertTrue(quiet.contains("the defaults moved "), quiet);
    assertTrue(quiet.contains(" over 3 runs"), quiet);
    assertFalse(quiet.contains("quiet runs"), quiet);
  }

  /**
   * A workload that reports no per-second values (a command printing one value) has no window error
   * to give: it said "a window's own error 0.0% (batch means, 0 windows)".
   */
  @Test
  void aWindowsOwnErrorIsNotKnownWithoutPerSecondValues() {
    String lines =
        MeasurementReport.lines(List.of(defaults(1, 1000), defaults(2, 1080), defaults(3, 950)));
    assertTrue(
        lines.contains(
            "; a window's own error not known (the workload reports no per-second values); "),
        lines);
    assertFalse(lines.contains("0 windows"), lines);

    double[] window = new double[8];
    for (int i = 0; i < window.length; i++) {
      window[i] = 1000 + (i % 2 == 0 ? 30 : -30);
    }
    String measured =
        MeasurementReport.lines(
            List.of(
                Trials.defaultsWithTimeline(1, window, 10),
                Trials.defaultsWithTimeline(2, window, 10),
                Trials.defaultsWithTimeline(3, window, 10)));
    assertTrue(
        measured.contains("; a window's own error 0.") && measured.contains(" windows); "),
        measured);
  }
}
