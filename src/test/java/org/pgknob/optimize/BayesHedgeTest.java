package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

/** The {@code portfolio} option: bayes hedging two models on spaces of numeric knobs. */
class BayesHedgeTest {
  private static final Objective TPS = Objective.maximize("tps");

  private static SearchSpace cube(int dims) {
    return TestSpaces.square(dims);
  }

  /** Two interacting inputs of four: a product kernel's kind of function. */
  private static double value(Configuration c) {
    double a = ((Number) c.get("x0")).doubleValue();
    double b = ((Number) c.get("x1")).doubleValue();
    return Math.sin(5 * a * b) + a;
  }

  private static Bayes run(Map<String, String> options, int budget) {
    OptimizerSpec spec = OptimizerSpec.of(cube(4), TPS).withSeed(3);
    Bayes bayes = (Bayes) Optimizers.create(OptimizerKind.BAYES, spec, options);
    for (int i = 0; i < budget; i++) {
      Configuration c = bayes.suggest();
      bayes.observe(c, Outcome.ok("tps", value(c)));
    }
    return bayes;
  }

  @Test
  void byDefaultEveryModelGuidedSuggestionOnANumericSpaceComesFromTheHedge() {
    Bayes bayes = run(Map.of(), 14);
    int[] chosen = bayes.hedgeChoices().orElseThrow();
    // the suggestions after the initial design, each from one of the two models
    assertEquals(14 - bayes.initialPoints(), chosen[0] + chosen[1]);
  }

  @Test
  void theHedgeIsDeterministicForASeed() {
    Bayes a = run(Map.of(), 12);
    Bayes b = run(Map.of(), 12);
    assertEquals(a.history().all(), b.history().all());
  }

  @Test
  void portfolioSingleAndOtherSurrogatesKeepOneModel() {
    assertTrue(run(Map.of("portfolio", "single"), 10).hedgeChoices().isEmpty());
    assertTrue(run(Map.of("prior", "saas"), 10).hedgeChoices().isEmpty());
    assertTrue(run(Map.of("surrogate", "rf"), 10).hedgeChoices().isEmpty());
  }

  @Test
  void aSpaceWithCategoricalKnobsKeepsOneModel() {
    OptimizerSpec spec = OptimizerSpec.of(TestSpaces.mixed(), TPS).withSeed(3);
    Bayes bayes = (Bayes) Optimizers.create(OptimizerKind.BAYES, spec, Map.of());
    assertTrue(bayes.hedgeChoices().isEmpty());
  }

  @Test
  void theSessionsReplayedModelKeepsOneModel() {
    OptimizerSpec spec = OptimizerSpec.of(cube(4), TPS);
    assertTrue(Optimizers.bayesOneModel(spec, SurrogateKind.GP).hedgeChoices().isEmpty());
    assertTrue(Optimizers.bayes(spec, SurrogateKind.GP).hedgeChoices().isPresent());
  }

  @Test
  void anUnknownPortfolioOrAHedgeOfAnotherModelIsRefusedNamingTheFix() {
    OptimizerSpec spec = OptimizerSpec.of(cube(4), TPS);
    PgknobException unknown =
        assertThrows(
            PgknobException.class,
            () -> Optimizers.create(OptimizerKind.BAYES, spec, Map.of("portfolio", "mix")));
    assertTrue(unknown.getMessage().contains("'mix'"), unknown.getMessage());
    assertTrue(unknown.fix().contains("portfolio=single"), unknown.fix());
    PgknobException other =
        assertThrows(
            PgknobException.class,
            () ->
                Optimizers.create(
                    OptimizerKind.BAYES, spec, Map.of("portfolio", "hedge", "surrogate", "rf")));
    assertTrue(other.getMessage().contains("surrogate=gp"), other.getMessage());
  }
}
