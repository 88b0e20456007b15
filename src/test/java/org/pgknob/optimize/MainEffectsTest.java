package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;

/** Main effects (first-order Sobol indices) of the fitted model, on synthetic data. */
class MainEffectsTest {
  private static SearchSpace space() {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      knobs.add(TestSpaces.real("x" + i, 0, 1, 0.5));
    }
    knobs.add(TestSpaces.enumKnob("mode", List.of("a", "b", "c"), "a"));
    return new SearchSpace("effects", knobs);
  }

  /**
   * TPS 1000 plus 300 along x1, plus 100 in mode c, minus a bowl of 50 in x4; x0, x2, x3, x5 do
   * nothing.
   */
  private static double tps(Configuration c) {
    double x1 = ((Number) c.get("x1")).doubleValue();
    double x4 = ((Number) c.get("x4")).doubleValue();
    return 1000 + 300 * x1 + ("c".equals(c.get("mode")) ? 100 : 0) - 200 * (x4 - 0.5) * (x4 - 0.5);
  }

  private static Bayes fitted(long seed) {
    Bayes bayes = Bayes.withGaussianProcess(OptimizerSpec.of(space(), Objective.maximize("tps")));
    Optimizer source =
        new RandomSearch(OptimizerSpec.of(space(), Objective.maximize("tps")).withSeed(seed));
    Random noise = new Random(seed);
    for (int i = 0; i < 40; i++) {
      Configuration c = source.suggest();
      source.observe(c, Outcome.ok("tps", 0));
      bayes.observe(c, Outcome.ok("tps", tps(c) + 3 * noise.nextGaussian()));
    }
    return bayes;
  }

  @Test
  void knobsThatMoveTheObjectiveGetTheLargestIndicesAndTheirRange() {
    List<MainEffect> effects = fitted(4).mainEffects();
    Map<String, MainEffect> byKnob =
        effects.stream().collect(Collectors.toMap(MainEffect::knob, e -> e));
    assertEquals("x1", effects.get(0).knob(), effects.toString());
    assertTrue(byKnob.get("x1").index() > 0.6, effects.toString());
    // x1's curve spans about 300 x 8/9 of about 1170 TPS on average: 20 to 25%
    assertEquals(0.23, byKnob.get("x1").rangeFraction(), 0.04, effects.toString());
    assertTrue(byKnob.get("mode").index() > 0.05, effects.toString());
    for (String inert : List.of("x0", "x2", "x3", "x5")) {
      assertTrue(byKnob.get(inert).index() < 0.02, inert + ": " + effects);
      assertTrue(byKnob.get(inert).rangeFraction() < 0.01, inert + ": " + effects);
    }
  }

  @Test
  void noEffectsBeforeTheModelExists() {
    Bayes bayes = Bayes.withGaussianProcess(OptimizerSpec.of(space(), Objective.maximize("tps")));
    assertTrue(bayes.mainEffects().isEmpty());
  }

  @Test
  void theSameDataGiveTheSameEffects() {
    assertEquals(fitted(9).mainEffects(), fitted(9).mainEffects());
  }
}
