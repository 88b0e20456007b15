package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

class BayesTest {
  private static final Objective TPS = Objective.maximize("tps");

  private static double x(Configuration c, String knob) {
    return ((Number) c.get(knob)).doubleValue();
  }

  @Test
  void incumbentIsTheBestPosteriorMeanNotTheLuckiestRun() {
    SearchSpace space = TestSpaces.square(1);
    Bayes bayes = Bayes.withGaussianProcess(OptimizerSpec.of(space, TPS));
    Random noise = new Random(1);
    // true tps peaks at x = 0.5; around x = 0.1 it is low, but one run there was very lucky
    for (int i = 0; i <= 20; i++) {
      double x = i / 20.0;
      double tps = 1000 - 400 * (x - 0.5) * (x - 0.5) + 5 * noise.nextGaussian();
      bayes.observe(Configuration.of(Map.of("x0", x)), Outcome.ok("tps", tps));
    }
    for (int i = 0; i < 4; i++) {
      double x = 0.09 + 0.01 * i;
      double tps = i == 1 ? 1010 : 1000 - 400 * (x - 0.5) * (x - 0.5);
      bayes.observe(Configuration.of(Map.of("x0", x)), Outcome.ok("tps", tps));
    }
    assertEquals(1010, bayes.history().bestObserved(TPS).orElseThrow().observedMean());
    Incumbent inc = bayes.incumbent().orElseThrow();
    assertEquals(0.5, x(inc.configuration(), "x0"), 0.1, "incumbent " + inc);
    assertTrue(inc.predictedValue() > 990 && inc.predictedValue() < 1010, inc.toString());
  }

  /**
   * A smooth rise to x0 = 1 (about 1100 TPS there), measured precisely, and one run far from the
   * others at x0 = 0.3 that reported 1300 TPS with a standard error of 150: as a precise value it
   * would be the incumbent (checked, so the test has the power to fail); with its standard error
   * the model trusts the precise runs.
   */
  @Test
  void aLuckyOutlierWithALargeStandardErrorIsNotTheIncumbent() {
    for (boolean withError : new boolean[] {false, true}) {
      SearchSpace space = TestSpaces.square(2);
      Bayes bayes = Bayes.withGaussianProcess(OptimizerSpec.of(space, TPS));
      Random noise = new Random(2);
      for (int i = 0; i < 12; i++) {
        double x0 = 0.55 + 0.45 * (i % 4) / 3.0;
        double x1 = (i / 4) / 2.0;
        double tps = 1000 + 100 * x0 + 2 * noise.nextGaussian();
        bayes.observe(
            Configuration.of(Map.of("x0", x0, "x1", x1)),
            Outcome.ok("tps", tps).withStandardError("tps", 2));
      }
      Outcome lucky = Outcome.ok("tps", 1300);
      bayes.observe(
          Configuration.of(Map.of("x0", 0.3, "x1", 0.5)),
          withError ? lucky.withStandardError("tps", 150) : lucky);
      Incumbent inc = bayes.incumbent().orElseThrow();
      if (withError) {
        assertEquals(1.0, x(inc.configuration(), "x0"), 1e-9, "incumbent " + inc);
      } else {
        assertEquals(0.3, x(inc.configuration(), "x0"), 1e-9, "without its error: " + inc);
      }
    }
  }

  @Test
  void findsTheOptimumFasterThanRandomSearch() {
    SearchSpace space = TestSpaces.square(3);
    double bayesBest = run(Bayes.withGaussianProcess(OptimizerSpec.of(space, TPS).withSeed(1)), 25);
    double randomBest = run(new RandomSearch(OptimizerSpec.of(space, TPS).withSeed(1)), 25);
    assertTrue(bayesBest > 0.99, "bayes reached " + bayesBest);
    assertTrue(bayesBest > randomBest, "bayes " + bayesBest + " vs random " + randomBest);
  }

  private static double run(Optimizer opt, int budget) {
    double best = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < budget; i++) {
      Configuration c = opt.suggest();
      double v = bowl(c);
      best = Math.max(best, v);
      opt.observe(c, Outcome.ok("tps", v));
    }
    return best;
  }

  private static double bowl(Configuration c) {
    double s = 0;
    for (int i = 0; i < 3; i++) {
      double d = x(c, "x" + i) - 0.3 - 0.2 * i;
      s += d * d;
    }
    return 1 - s;
  }

  @Test
  void stopsProposingTheNeighbourhoodOfFailures() {
    // everything with x0 > 0.6 crashes; the optimum of the rest is at the edge, x0 = 0.6. Counted
    // over four seeds: a single seed's count moves by one or two with any change to the model
    SearchSpace space = TestSpaces.square(2);
    int lateDeepFailures = 0;
    int seeds = 4;
    for (int seed = 0; seed < seeds; seed++) {
      Bayes bayes = Bayes.withGaussianProcess(OptimizerSpec.of(space, TPS).withSeed(seed));
      for (int i = 0; i < 30; i++) {
        Configuration c = bayes.suggest();
        if (x(c, "x0") > 0.6) {
          bayes.observe(c, Outcome.failed("would not start"));
          // probing the edge (the optimum lies on it) is fair; going deep into the region is not
          lateDeepFailures += i >= 15 && x(c, "x0") > 0.7 ? 1 : 0;
        } else {
          bayes.observe(
              c, Outcome.ok("tps", 100 + 50 * x(c, "x0") - 20 * Math.abs(x(c, "x1") - 0.5)));
        }
      }
      assertTrue(x(bayes.incumbent().orElseThrow().configuration(), "x0") > 0.45, "seed " + seed);
    }
    // the unconstrained optimum lies in the failing region; without the feasibility model, most
    // late suggestions would go there (13 of 15 did on one seed before it worked); with it, the
    // corners of the region farthest from the failures seen are still probed now and then
    // (8 or 9 of these 60 late suggestions, measured)
    assertTrue(
        lateDeepFailures <= 12,
        "late failures deep in the region: " + lateDeepFailures + " of " + 15 * seeds);
  }

  @Test
  void knobImportanceRanksTheKnobThatMattersFirst() {
    SearchSpace space = TestSpaces.square(3);
    Bayes bayes = Bayes.withGaussianProcess(OptimizerSpec.of(space, TPS).withSeed(3));
    Random r = new Random(3);
    for (int i = 0; i < 30; i++) {
      Configuration c =
          Configuration.of(
              Map.of("x0", r.nextDouble(), "x1", r.nextDouble(), "x2", r.nextDouble()));
      bayes.observe(c, Outcome.ok("tps", 100 + 30 * Math.sin(5 * x(c, "x1"))));
    }
    Map<String, Double> importance = bayes.knobImportance();
    assertEquals("x1", importance.keySet().iterator().next(), importance.toString());
    assertTrue(importance.get("x1") > 0.6, importance.toString());
    assertEquals(1.0, importance.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
  }

  @Test
  void randomForestSurrogateBeatsRandomSearchOnCategoricalKnobs() {
    List<org.pgknob.space.Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      knobs.add(TestSpaces.enumKnob("c" + i, List.of("a", "b", "c", "d"), "a"));
    }
    knobs.add(TestSpaces.real("x", 0, 1, 0.5));
    SearchSpace space = new SearchSpace("categorical", knobs);
    double rfTotal = 0;
    double randomTotal = 0;
    for (long seed = 1; seed <= 3; seed++) {
      Bayes rf =
          new Bayes(
              OptimizerSpec.of(space, TPS).withSeed(seed), Optimizers.surrogate(SurrogateKind.RF));
      assertEquals("bayes-rf", rf.name());
      rfTotal += runCategorical(rf, 30);
      randomTotal +=
          runCategorical(new RandomSearch(OptimizerSpec.of(space, TPS).withSeed(seed)), 30);
    }
    assertTrue(rfTotal > randomTotal, "rf " + rfTotal + " vs random " + randomTotal);
  }

  /** Best of {@code budget} trials; the best is c0..c3 = d, c, b, a and x = 0.3 (value 10). */
  private static double runCategorical(Optimizer opt, int budget) {
    double best = Double.NEGATIVE_INFINITY;
    String[] wanted = {"d", "c", "b", "a"};
    for (int i = 0; i < budget; i++) {
      Configuration c = opt.suggest();
      double v = 6 - 2 * Math.abs(x(c, "x") - 0.3);
      for (int k = 0; k < 4; k++) {
        v += c.get("c" + k).equals(wanted[k]) ? 1 : 0;
      }
      best = Math.max(best, v);
      opt.observe(c, Outcome.ok("tps", v));
    }
    return best;
  }

  @Test
  void minimizationIsHandledByTheObjectiveDirection() {
    SearchSpace space = TestSpaces.square(1);
    Bayes bayes =
        Bayes.withGaussianProcess(OptimizerSpec.of(space, Objective.minimize("latency_ms")));
    for (int i = 0; i <= 10; i++) {
      double x = i / 10.0;
      bayes.observe(
          Configuration.of(Map.of("x0", x)),
          Outcome.ok("latency_ms", 5 + 20 * (x - 0.8) * (x - 0.8)));
    }
    assertEquals(0.8, x(bayes.incumbent().orElseThrow().configuration(), "x0"), 0.11);
    assertEquals(0.8, x(bayes.suggest(), "x0"), 0.2);
  }
}
