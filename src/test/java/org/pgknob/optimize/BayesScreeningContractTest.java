package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.optimize.acquisition.AcquisitionMaximizer;
import org.pgknob.optimize.model.GpFitter;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;

/**
 * The contract with a screening design instead of the initial design ({@code initial=screen}), here
 * applied to every space however small, so that the contract's mixed space of 5 knobs is screened
 * too; and the search that follows moves only the knobs the screening found active.
 */
class BayesScreeningContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return new Bayes(
        spec,
        new GpFitter(),
        AcquisitionMaximizer.Settings.defaults(),
        Bayes.INITIAL_CAP,
        new Screening.Policy(1, true));
  }

  @Test
  void theInitialOptionScreensFromTenKnobsAndRefusesAnythingElseNamingTheChoices() {
    assertEquals(Screening.Policy.DEFAULT, Optimizers.screening("screen"));
    assertTrue(Screening.Policy.DEFAULT.appliesTo(10) && !Screening.Policy.DEFAULT.appliesTo(9));
    assertEquals(Screening.Policy.NONE, Optimizers.screening("12"));
    assertTrue(!Optimizers.screening("screen:design").hold());
    assertEquals(Bayes.INITIAL_CAP, Optimizers.initialCap("screen:design"));
    assertEquals(12, Optimizers.initialCap("12"));
    assertInstanceOf(
        Bayes.class, Optimizers.create(OptimizerKind.BAYES, spec(1), Map.of("initial", "screen")));
    PgknobException e = assertThrows(PgknobException.class, () -> Optimizers.initialCap("scren"));
    assertTrue(e.getMessage().contains("'scren'"), e.getMessage());
    assertTrue(e.fix().contains("initial=screen"), e.fix());
  }

  /**
   * After the screening of 12 knobs of which 2 matter (found), every suggestion keeps the held
   * knobs at the incumbent's values, but for the probes, which move exactly one held knob each, one
   * per {@link Screening#PROBE_EVERY} trials; and the search on the two finds their optimum.
   */
  @Test
  void heldKnobsStayAtTheIncumbentsValuesButForOneProbeEveryFewTrials() {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      knobs.add(TestSpaces.real("x" + i, 0, 1, 0.5));
    }
    SearchSpace space = new SearchSpace("twelve", knobs);
    Objective cost = Objective.minimize("cost");
    Bayes bayes =
        (Bayes)
            Optimizers.create(
                OptimizerKind.BAYES,
                OptimizerSpec.of(space, cost).withSeed(5),
                Map.of("initial", "screen"));
    Random noise = new Random(5);
    int afterScreening = 0;
    int probes = 0;
    for (int trial = 0; trial < 34; trial++) {
      List<String> active = bayes.activeKnobs();
      Configuration incumbent =
          bayes.incumbent().map(Incumbent::configuration).orElse(Configuration.empty());
      Configuration c = bayes.suggest();
      if (active.size() < space.size()) {
        assertTrue(active.containsAll(List.of("x3", "x8")), "trial " + trial + ": " + active);
        afterScreening++;
        int heldMoved = 0;
        for (String knob : space.names()) {
          double a = ((Number) c.get(knob)).doubleValue();
          double b = ((Number) incumbent.get(knob)).doubleValue();
          if (!active.contains(knob) && Math.abs(a - b) > 1e-9) {
            heldMoved++;
          }
        }
        assertTrue(heldMoved <= 1, "trial " + trial + " moved " + heldMoved + " held knobs: " + c);
        probes += heldMoved;
      }
      double x3 = ((Number) c.get("x3")).doubleValue();
      double x8 = ((Number) c.get("x8")).doubleValue();
      double value = 10 * (x3 - 0.2) * (x3 - 0.2) + 5 * x8 + 0.01 * noise.nextGaussian();
      bayes.observe(c, Outcome.ok("cost", value));
    }
    assertTrue(afterScreening >= 15, afterScreening + " trials after the screening");
    assertTrue(
        probes >= 1 && probes <= afterScreening / Screening.PROBE_EVERY + 1,
        probes + " probes in " + afterScreening + " trials");
    // the search on the two active knobs works: cost 0 at x3 = 0.2, x8 = 0
    Configuration best = bayes.incumbent().orElseThrow().configuration();
    double x3 = ((Number) best.get("x3")).doubleValue();
    double x8 = ((Number) best.get("x8")).doubleValue();
    assertTrue(10 * (x3 - 0.2) * (x3 - 0.2) + 5 * x8 < 0.2, "incumbent " + best);
  }
}
