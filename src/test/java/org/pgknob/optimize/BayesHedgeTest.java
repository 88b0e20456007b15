package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.space.Configuration;

/** The {@code portfolio=hedge} option: bayes hedging two models on spaces of numeric knobs. */
class BayesHedgeTest {
  private static final Objective TPS = Objective.maximize("tps");

  /** Two interacting inputs of four: a product kernel's kind of function. */
  private static double value(Configuration c) {
    double a = ((Number) c.get("x0")).doubleValue();
    double b = ((Number) c.get("x1")).doubleValue();
    return Math.sin(5 * a * b) + a;
  }

  private static Bayes run(Map<String, String> options, int budget) {
    OptimizerSpec spec = OptimizerSpec.of(TestSpaces.square(4), TPS).withSeed(3);
    Bayes bayes = (Bayes) Optimizers.create(OptimizerKind.BAYES, spec, options);
    for (int i = 0; i < budget; i++) {
      Configuration c = bayes.suggest();
      bayes.observe(c, Outcome.ok("tps", value(c)));
    }
    return bayes;
  }

  private static final Map<String, String> HEDGE = Map.of("portfolio", "hedge");

  @Test
  void everyModelGuidedSuggestionOnANumericSpaceComesFromTheHedge() {
    Bayes bayes = run(HEDGE, 14);
    int[] chosen = bayes.hedgeChoices().orElseThrow();
    // the suggestions after the initial design, each from one of the two models
    assertEquals(14 - bayes.initialPoints(), chosen[0] + chosen[1]);
  }

  @Test
  void theHedgeIsDeterministicForASeed() {
    Bayes a = run(HEDGE, 12);
    Bayes b = run(HEDGE, 12);
    assertEquals(a.history().all(), b.history().all());
  }

  @Test
  void theDefaultAndPortfolioSingleKeepOneModel() {
    assertTrue(run(Map.of(), 10).hedgeChoices().isEmpty());
    assertTrue(run(Map.of("portfolio", "single"), 10).hedgeChoices().isEmpty());
    OptimizerSpec spec = OptimizerSpec.of(TestSpaces.square(4), TPS);
    assertTrue(Optimizers.bayes(spec, SurrogateKind.GP).hedgeChoices().isEmpty());
  }

  @Test
  void aSpaceWithCategoricalKnobsKeepsOneModel() {
    OptimizerSpec spec = OptimizerSpec.of(TestSpaces.mixed(), TPS).withSeed(3);
    Bayes bayes = (Bayes) Optimizers.create(OptimizerKind.BAYES, spec, HEDGE);
    assertTrue(bayes.hedgeChoices().isEmpty());
  }

  @Test
  void anUnknownPortfolioOrAHedgeOfAnotherModelIsRefusedNamingTheFix() {
    for (Map<String, String> other : List.of(Map.of("surrogate", "rf"), Map.of("prior", "saas"))) {
      Map<String, String> options = new java.util.HashMap<>(other);
      options.put("portfolio", "hedge");
      PgknobException e =
          assertThrows(
              PgknobException.class,
              () ->
                  Optimizers.create(
                      OptimizerKind.BAYES, OptimizerSpec.of(TestSpaces.square(4), TPS), options));
      assertTrue(e.getMessage().contains("surrogate=gp"), e.getMessage());
    }
    OptimizerSpec spec = OptimizerSpec.of(TestSpaces.square(4), TPS);
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
