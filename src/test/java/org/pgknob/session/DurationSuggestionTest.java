package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.measure.NoiseComponents;
import org.pgknob.measure.RunNoise;
import org.pgknob.measure.WindowChoice;
import org.pgknob.trial.TrialResult;

/**
 * The "--duration" suggestions of the console and the verdict: a longer window is suggested only
 * when it lowers the smallest detectable gain, never when it makes it worse (seen on a quiet
 * machine: "gains down to 60%" suggested while the session's own figure was 32%).
 */
class DurationSuggestionTest {
  /** TPROC-C, 2 warehouses, 5 s ramp-up, 15 s windows, both tracks, as the default tune. */
  private static SessionInputs defaultTune(String budget) {
    Map<String, Object> m = TinyInputs.map(budget, List.of("reload", "restart"));
    m.put("warehouses", 2);
    m.put("rampupSeconds", 5);
    m.put("windowSeconds", 15);
    return SessionInputs.fromMap(m);
  }

  /**
   * Runs of the defaults whose levels differ by {@code betweenRuns} (log sd) and whose seconds
   * scatter by {@code perSecond} (relative sd) around their level.
   */
  private static List<TrialResult> baselines(int runs, double betweenRuns, double perSecond) {
    Random random = new Random(16);
    List<TrialResult> out = new ArrayList<>();
    for (int k = 1; k <= runs; k++) {
      double level = 1000 * Math.exp(betweenRuns * random.nextGaussian());
      double[] seconds = new double[15];
      for (int i = 0; i < seconds.length; i++) {
        seconds[i] = level * Math.max(0.05, 1 + perSecond * random.nextGaussian());
      }
      out.add(Trials.defaultsWithTimeline(k, seconds, 31));
    }
    return out;
  }

  private static SessionPlan planOf(SessionInputs inputs, double trialSeconds) {
    WindowBudget budget = WindowBudget.whole(Budget.parse(inputs.budget()), trialSeconds, inputs);
    return budget.shares(trialSeconds).plan(List.of());
  }

  @Test
  void whenRunToRunNoiseDominatesNoLongerWindowIsSuggestedAndTheVerdictSaysWhy() {
    // The quiet machine's figures: about 11% run to run, of which a window's own error is ~3.6%.
    SessionInputs inputs = defaultTune("12m");
    List<TrialResult> trials = baselines(5, 0.106, 0.14);
    MeasurementReport.DetectableGain g =
        MeasurementReport.detectableGain(trials, planOf(inputs, 31), inputs, 31).orElseThrow();
    assertEquals(0, g.longerWindowSeconds(), g.toString());
    assertFalse(g.noLongerWindow().isEmpty(), g.toString());

    Verdict v = Verdict.of(facts(g));
    assertTrue(
        v.next().stream().noneMatch(n -> n.command().contains("--duration")), v.lines().toString());
    assertTrue(
        v.details().stream().anyMatch(d -> d.contains(g.noLongerWindow())), v.lines().toString());
  }

  @Test
  void aSuggestedWindowAlwaysLowersTheDetectableGain() {
    // Across budgets and noise mixes, from between-run noise only to within-window noise only.
    for (String budget : List.of("12m", "30m", "60m", "3h", "40", "120")) {
      for (double[] mix : new double[][] {{0.10, 0.02}, {0.06, 0.14}, {0.01, 0.4}, {0.0, 0.3}}) {
        SessionInputs inputs = defaultTune(budget);
        List<TrialResult> trials = baselines(5, mix[0], mix[1]);
        MeasurementReport.DetectableGain g =
            MeasurementReport.detectableGain(trials, planOf(inputs, 31), inputs, 31).orElseThrow();
        if (g.longerWindowSeconds() > 0) {
          assertTrue(g.longerWindow() < g.now(), budget + " " + g);
        } else {
          assertFalse(g.noLongerWindow().isEmpty(), budget + " " + g);
        }
      }
    }
  }

  @Test
  void theReasonForNoLongerWindowNamesTheNoiseThatDominates() {
    // Most of the noise between runs: their spread is the reason.
    SessionInputs fifteen = defaultTune("60m");
    String spread =
        MeasurementReport.detectableGain(
                baselines(5, 0.106, 0.14), planOf(fifteen, 31), fifteen, 31)
            .orElseThrow()
            .noLongerWindow();
    assertTrue(
        spread.matches(
            "longer windows would not lower it: the runs differ by 1[0-9][.][0-9]% and a window's"
                + " own error is only [0-9][.][0-9]%, so fewer, longer runs gain little"),
        spread);

    // Most of it a window's own error, and the longer windows that fit lower the gain by less than
    // a tenth: a 6-minute session of 3-s windows read "the runs differ by 1.2% and a window's own
    // error is 4.1%, so fewer, longer runs gain little".
    RunNoise runs = new RunNoise(0.012, 20, 24, 4);
    NoiseComponents c = NoiseComponents.split(runs, 0.041, 3);
    WindowChoice.Option asItIs = new WindowChoice.Option(3, 3, 0.040);
    WindowChoice.Choice choice =
        new WindowChoice.Choice(
            asItIs,
            List.of(
                asItIs,
                new WindowChoice.Option(6, 2, 0.038),
                new WindowChoice.Option(12, 1, 0.052),
                new WindowChoice.Option(24, 0, Double.NaN)));
    assertEquals(
        "longer windows would not lower it: the noise is mostly a window's own error (4.1% at 3"
            + " s), which a longer window cuts by about as much as its fewer runs add back",
        MeasurementReport.whyNoLongerWindow(c, runs, choice, 3));
  }

  @Test
  void noisySecondsInALongBudgetGetALongerWindowInTheSameTime() {
    SessionInputs inputs = defaultTune("40");
    List<TrialResult> trials = baselines(5, 0.01, 0.4);
    MeasurementReport.DetectableGain g =
        MeasurementReport.detectableGain(trials, planOf(inputs, 31), inputs, 31).orElseThrow();
    assertTrue(g.longerWindowSeconds() > 15, g.toString());
    assertTrue(g.longerWindow() < 0.9 * g.now(), g.toString());
    // 40 trials of 31 s: the same time is 21 minutes, rounded up to whole minutes.
    assertEquals("21m", g.longerWindowBudget());
    Verdict v = Verdict.of(facts(g));
    assertTrue(
        v.next().stream()
            .anyMatch(
                n ->
                    n.command()
                        .equals(
                            "./pgknob tune --budget 21m --duration "
                                + g.longerWindowSeconds()
                                + "s")),
        v.lines().toString());
  }

  @Test
  void theDoubledBudgetKeepsTheSessionsOwnWindowWhoseGainItPromises() {
    Map<String, Object> m = TinyInputs.map("60m", List.of("reload", "restart"));
    m.put("warehouses", 2);
    m.put("rampupSeconds", 5);
    m.put("windowSeconds", 60);
    SessionInputs inputs = SessionInputs.fromMap(m);
    MeasurementReport.DetectableGain g =
        MeasurementReport.detectableGain(baselines(5, 0.10, 0.02), planOf(inputs, 76), inputs, 76)
            .orElseThrow();
    Verdict v = Verdict.of(facts(g));
    assertTrue(
        v.next().stream()
            .anyMatch(n -> n.command().equals("./pgknob tune --budget 2h --duration 60s")),
        v.lines().toString());
  }

  private static VerdictFacts facts(MeasurementReport.DetectableGain g) {
    return new VerdictFacts(
        "runs/x",
        org.pgknob.runs.Goal.TPS,
        List.of(),
        Map.of(),
        java.util.Set.of(),
        Map.of(),
        Optional.of(g),
        "",
        "",
        false);
  }
}
