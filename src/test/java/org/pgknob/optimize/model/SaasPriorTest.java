package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pgknob.optimize.model.TwoRelevantInputs.DIMS;
import static org.pgknob.optimize.model.TwoRelevantInputs.RELEVANT;
import static org.pgknob.optimize.model.TwoRelevantInputs.points;
import static org.pgknob.optimize.model.TwoRelevantInputs.relevant;
import static org.pgknob.optimize.model.TwoRelevantInputs.targets;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The sparsity (SAAS) prior: inputs that do nothing get long length scales from few data ({@link
 * TwoRelevantInputs}).
 */
class SaasPriorTest {
  @Test
  void inputsThatDoNothingGetLongLengthScales() {
    double[][] x = points();
    double[] ls =
        GpFitter.withSaasPrior(GpFitter.SAAS_TAU)
            .fit(x, targets(x), 1L)
            .hyperparameters()
            .lengthScales();
    for (int d = 0; d < DIMS; d++) {
      if (relevant(d)) {
        assertTrue(ls[d] < 2, "relevant input " + d + ": " + Arrays.toString(ls));
      } else {
        assertTrue(ls[d] > 5, "irrelevant input " + d + ": " + Arrays.toString(ls));
      }
    }
  }

  @Test
  void theSparsePriorSeparatesInertInputsMoreThanTheDimensionScaledOne() {
    double[][] x = points();
    double[] y = targets(x);
    double sparse = shortestInert(GpFitter.withSaasPrior(GpFitter.SAAS_TAU).fit(x, y, 1L));
    double scaled = shortestInert(new GpFitter().fit(x, y, 1L));
    assertTrue(sparse > 2 * scaled, "shortest inert length: saas " + sparse + ", scaled " + scaled);
  }

  private static double shortestInert(GaussianProcess gp) {
    double[] ls = gp.hyperparameters().lengthScales();
    double out = Double.POSITIVE_INFINITY;
    for (int d = 0; d < DIMS; d++) {
      if (!relevant(d)) {
        out = Math.min(out, ls[d]);
      }
    }
    return out;
  }

  /**
   * The adaptive fitter (the default prior, {@code auto}) keeps whichever of its fits predicts
   * held-out points best; whichever it is, the inert inputs' length scales are several times the
   * relevant ones', so the acquisition's relevance-weighted moves go to inputs 2 and 7.
   */
  @Test
  void theAdaptiveFittersChoiceGivesInertInputsLongLengthScales() {
    double[][] x = points();
    GpFitter fitter = GpFitter.adaptive(GpFitter.SAAS_TAU);
    double[] ls = fitter.fit(x, targets(x), 1L).hyperparameters().lengthScales();
    double longestRelevant = Math.max(ls[RELEVANT[0]], ls[RELEVANT[1]]);
    for (int d = 0; d < DIMS; d++) {
      if (!relevant(d)) {
        assertTrue(
            ls[d] > 4 * longestRelevant,
            "input " + d + " (" + fitter.lastChoice() + " fit): " + Arrays.toString(ls));
      }
    }
  }

  /**
   * The {@code sparse} prior's fitter: from {@link GpFitter#SPARSE_FROM_DIMENSIONS} dimensions (16
   * here, inputs 2 and 7 relevant) the inert inputs get long length scales and the relevant ones
   * short, so its importance (1 / length scale) ranks inputs 2 and 7 first.
   */
  @Test
  void theSparseFromFitterGivesInertInputsLongLengthScalesInManyDimensions() {
    int dims = 16;
    double[][] x = points(dims);
    GpFitter fitter = GpFitter.sparseFrom(GpFitter.SPARSE_FROM_DIMENSIONS, GpFitter.SAAS_TAU);
    double[] ls = fitter.fit(x, targets(x), 1L).hyperparameters().lengthScales();
    for (int d = 0; d < dims; d++) {
      if (relevant(d)) {
        assertTrue(ls[d] < 2, "relevant input " + d + ": " + Arrays.toString(ls));
      } else {
        assertTrue(ls[d] > 5, "irrelevant input " + d + ": " + Arrays.toString(ls));
      }
    }
  }

  /**
   * Below {@link GpFitter#SPARSE_FROM_DIMENSIONS} the {@code sparse} prior's fitter is the
   * dimension-scaled one: the same length scales to the digit on the same 12-D data.
   */
  @Test
  void theSparseFromFitterKeepsTheDimensionScaledPriorInFewDimensions() {
    double[][] x = points();
    double[] y = targets(x);
    GpFitter fitter = GpFitter.sparseFrom(GpFitter.SPARSE_FROM_DIMENSIONS, GpFitter.SAAS_TAU);
    assertTrue(DIMS < GpFitter.SPARSE_FROM_DIMENSIONS);
    assertEquals(
        Arrays.toString(new GpFitter().fit(x, y, 1L).hyperparameters().lengthScales()),
        Arrays.toString(fitter.fit(x, y, 1L).hyperparameters().lengthScales()));
  }

  @Test
  void penaltyGradientMatchesFiniteDifferences() {
    LengthScalePrior prior = new LengthScalePrior.Saas(0.1);
    double[] p = {-2, -0.5, 0, 1.2, 3};
    GradientCheck.assertMatchesFiniteDifferences(
        (point, gradient) -> prior.penalty(point, gradient, point.length), p, 1e-6, 1e-6);
  }
}
