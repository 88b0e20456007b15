package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.optimize.model.BowlMeanFitter;
import org.pgknob.optimize.model.GpFitter;
import org.pgknob.optimize.model.RandomForestSurrogate;
import org.pgknob.optimize.model.SaasboFitter;

/** The {@code mean} option of bayes: the Gaussian process's prior mean. */
class PriorMeanOptionTest {
  @Test
  void theBowlIsTheDefaultOfTheMapGaussianProcessCentredKeepsItAndConstantTurnsItOff() {
    assertInstanceOf(BowlMeanFitter.class, Optimizers.surrogate(SurrogateKind.GP));
    assertInstanceOf(BowlMeanFitter.class, Optimizers.surrogate(SurrogateKind.GP, "saas"));
    assertInstanceOf(
        BowlMeanFitter.class,
        Optimizers.surrogate(SurrogateKind.GP, "scaled", "onehot", "centred"));
    assertInstanceOf(
        GpFitter.class, Optimizers.surrogate(SurrogateKind.GP, "scaled", "onehot", "constant"));
  }

  @Test
  void theFullyBayesianPriorAndTheForestKeepTheirOwnMean() {
    assertInstanceOf(
        SaasboFitter.class, Optimizers.surrogate(SurrogateKind.GP, "saasbo", "onehot", "bowl"));
    assertInstanceOf(
        RandomForestSurrogate.Fitter.class,
        Optimizers.surrogate(SurrogateKind.RF, "scaled", "onehot", "bowl"));
  }

  @Test
  void anUnknownMeanIsRefusedNamingItAndTheChoices() {
    OptimizerSpec spec = OptimizerSpec.of(TestSpaces.mixed(), Objective.maximize("tps"));
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () -> Optimizers.create(OptimizerKind.BAYES, spec, Map.of("mean", "flat")));
    assertTrue(e.getMessage().contains("'flat'"), e.getMessage());
    assertTrue(e.fix().contains("mean=constant"), e.fix());
    assertTrue(e.fix().contains("mean=centred"), e.fix());
  }
}
