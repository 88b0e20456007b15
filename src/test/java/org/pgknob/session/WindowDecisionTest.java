package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.trial.TrialResult;

/**
 * --duration auto's choice from logged baselines (synthetic, with per-second timelines): a workload
 * whose runs differ more than their seconds keeps the baselines' window; one whose seconds scatter
 * widely gets a longer one, the remade shares keep the baselines, and the same trials give the same
 * choice (what a resume relies on).
 */
class WindowDecisionTest {
  private static SessionInputs auto(String budget) {
    Map<String, Object> m = TinyInputs.map(budget, List.of("reload"));
    m.keySet().removeAll(List.of("warehouses", "virtualUsers", "allWarehouses"));
    m.put("workload", Map.of("name", "command", "command", "true", "database", "postgres"));
    m.put("windowSeconds", 15);
    m.put("autoWindow", AutoWindow.startingWith(15).toMap());
    return SessionInputs.fromMap(m);
  }

  private static List<TrialResult> baselines(double betweenRuns, double perSecond) {
    Random random = new Random(3);
    List<TrialResult> out = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      double level = 1000 * Math.exp(betweenRuns * random.nextGaussian());
      double[] seconds = new double[15];
      for (int i = 0; i < seconds.length; i++) {
        seconds[i] = level * Math.max(0.05, 1 + perSecond * random.nextGaussian());
      }
      out.add(Trials.defaultsWithTimeline(k, seconds, 25));
    }
    return out;
  }

  @Test
  void runsThatDifferMoreThanTheirSecondsKeepTheBaselinesWindow() {
    WindowDecision d = WindowDecision.after(baselines(0.05, 0.01), auto("13,10m"), 0);
    assertEquals(15, d.windowSeconds(), d.reason());
    assertTrue(d.reason().startsWith("window: 15 s kept (--duration auto): "), d.reason());
  }

  @Test
  void widelyScatteredSecondsGetALongerWindowAndTheSharesKeepTheBaselines() {
    SessionInputs inputs = auto("13,10m");
    List<TrialResult> trials = baselines(0.003, 0.5);
    WindowDecision d = WindowDecision.after(trials, inputs, 0);
    assertEquals(30, d.windowSeconds(), d.reason()); // 60 s would leave 10 trials: no room
    assertTrue(d.reason().contains("60 s: no room"), d.reason());
    assertEquals(3, d.shares().baselineRuns());
    assertEquals(13, d.shares().totalTrials());
    assertEquals(d, WindowDecision.after(trials, inputs, 0));

    SessionInputs chosen = inputs.withChosenWindow(d.windowSeconds(), d.reason());
    SessionInputs reread = SessionInputs.fromMap(chosen.toMap());
    assertEquals(30, reread.windowSeconds());
    assertEquals(chosen.autoWindow(), reread.autoWindow());
    assertEquals("auto", chosen.toMap().get("duration"));
  }
}
