package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.optimize.model.BowlMeanFitter;
import org.pgknob.optimize.model.SurrogateFitter;

/** The {@code mean} option: which prior mean each label gives, and the message for a bad one. */
class OptimizersMeanOptionTest {
  @Test
  void bowlAndCentredGiveTheBowlAndConstantGivesThePlainProcess() {
    assertInstanceOf(
        BowlMeanFitter.class, Optimizers.surrogate(SurrogateKind.GP, "scaled", "onehot", "bowl"));
    assertInstanceOf(
        BowlMeanFitter.class,
        Optimizers.surrogate(SurrogateKind.GP, "scaled", "onehot", "centred"));
    SurrogateFitter constant =
        Optimizers.surrogate(SurrogateKind.GP, "scaled", "onehot", "constant");
    assertFalse(constant instanceof BowlMeanFitter, constant.getClass().getName());
  }

  @Test
  void anUnknownMeanNamesItselfAndTheThreeChoices() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () -> Optimizers.surrogate(SurrogateKind.GP, "scaled", "onehot", "centered"));

    assertEquals("unknown prior mean 'centered'", e.getMessage());
    assertEquals("choose mean=bowl, mean=centred or mean=constant", e.fix());
  }
}
