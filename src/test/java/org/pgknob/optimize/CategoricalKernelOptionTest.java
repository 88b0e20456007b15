package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.optimize.model.BowlMeanFitter;
import org.pgknob.optimize.model.CategoricalKernel;
import org.pgknob.optimize.model.GpFitter;

/** The {@code categorical} option of bayes: which kernel compares categorical knobs. */
class CategoricalKernelOptionTest {
  @Test
  void overlapAndOneHotNameTheirKernelsAndOneHotIsTheDefault() {
    assertEquals(
        CategoricalKernel.OVERLAP,
        gp(Optimizers.surrogate(SurrogateKind.GP, "scaled", "overlap")).categoricalKernel());
    assertEquals(
        CategoricalKernel.ONE_HOT,
        gp(Optimizers.surrogate(SurrogateKind.GP, "scaled", "onehot")).categoricalKernel());
    assertEquals(
        CategoricalKernel.ONE_HOT, gp(Optimizers.surrogate(SurrogateKind.GP)).categoricalKernel());
  }

  @Test
  void anUnknownKernelIsRefusedNamingItAndTheChoices() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () -> Optimizers.surrogate(SurrogateKind.GP, "scaled", "hamming"));
    assertTrue(e.getMessage().contains("'hamming'"), e.getMessage());
    assertTrue(e.fix().contains("categorical=overlap"), e.fix());
  }

  private static GpFitter gp(Object fitter) {
    // the default prior mean wraps the Gaussian process's fitter
    Object inner = assertInstanceOf(BowlMeanFitter.class, fitter).inner();
    return assertInstanceOf(GpFitter.class, inner);
  }
}
