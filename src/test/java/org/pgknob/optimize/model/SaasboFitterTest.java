package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pgknob.optimize.model.TwoRelevantInputs.DIMS;
import static org.pgknob.optimize.model.TwoRelevantInputs.points;
import static org.pgknob.optimize.model.TwoRelevantInputs.relevant;
import static org.pgknob.optimize.model.TwoRelevantInputs.targets;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fully Bayesian SAAS model: on a fixed small data set the posterior median length scales of
 * the inputs that do nothing are long and those of the inputs that matter short ({@link
 * TwoRelevantInputs}).
 */
class SaasboFitterTest {
  /**
   * Input 7's effect is a parabola of range 0.7 against input 2's sine of range 2, so its length
   * scale is the longer of the two relevant ones (about 3, a quadratic needs no short one); the ten
   * inert inputs' medians sit above 10, where the unit cube is flat to the kernel.
   */
  @Test
  void posteriorMedianLengthScalesAreLongForInertInputsAndShortForRelevantOnes() {
    double[][] x = points();
    GpEnsemble model = new SaasboFitter().fit(x, targets(x), 1L);
    assertEquals(SaasboFitter.KEPT, model.members().size());
    double[] ls = model.medianLengthScales();
    assertInertLongRelevantShort(ls);
  }

  /**
   * The median process is one Gaussian process whose length scales are the draws' medians: on the
   * same data its inert inputs are flat (above 10) and its relevant ones short (below 5), so the
   * expected improvement it gives does not reward moves along inert inputs.
   */
  @Test
  void medianProcessIsOneProcessWithLongInertAndShortRelevantLengthScales() {
    double[][] x = points();
    GpEnsemble model = SaasboFitter.medianEveryObservation().fit(x, targets(x), 1L);
    assertEquals(1, model.members().size());
    double[] ls = model.members().get(0).hyperparameters().lengthScales();
    assertInertLongRelevantShort(ls);
  }

  /** Relevant inputs' length scales below 5, inert inputs' above 10 (flat on the unit cube). */
  private static void assertInertLongRelevantShort(double[] ls) {
    for (int d = 0; d < DIMS; d++) {
      if (relevant(d)) {
        assertTrue(ls[d] < 5, "relevant input " + d + ": " + Arrays.toString(ls));
      } else {
        assertTrue(ls[d] > 10, "inert input " + d + ": " + Arrays.toString(ls));
      }
    }
  }

  /**
   * With the chain at every observation, one new point moves the hyperparameters (the chain ran);
   * SAASBO's fitter of the fourth round only conditions its kept draws on it, so the model lags the
   * data by up to 4 observations.
   */
  @Test
  void everyObservationRunsTheChainWhereTheDefaultSaasboOnlyConditions() {
    double[][] x = points();
    double[] y = targets(x);
    double[][] fewer = Arrays.copyOf(x, x.length - 1);
    double[] fewerY = Arrays.copyOf(y, y.length - 1);
    SaasboFitter lagging = new SaasboFitter(64, 16, 32);
    SaasboFitter every = new SaasboFitter(64, 16, 32, true, false);
    double[] laggingBefore = firstLengthScales(lagging.fit(fewer, fewerY, 1L));
    double[] everyBefore = firstLengthScales(every.fit(fewer, fewerY, 1L));
    assertTrue(Arrays.equals(laggingBefore, firstLengthScales(lagging.fit(x, y, 2L))));
    assertTrue(!Arrays.equals(everyBefore, firstLengthScales(every.fit(x, y, 2L))));
  }

  private static double[] firstLengthScales(GpEnsemble model) {
    return model.members().get(0).hyperparameters().lengthScales();
  }

  @Test
  void medianHyperparametersAreEachCoordinatesMedian() {
    GpHyperparameters median =
        SaasboFitter.median(
            java.util.List.of(
                new GpHyperparameters(new double[] {1, 30}, 2, 0.1),
                new GpHyperparameters(new double[] {5, 10}, 1, 0.3),
                new GpHyperparameters(new double[] {3, 20}, 4, 0.2)));
    assertTrue(Arrays.equals(new double[] {3, 20}, median.lengthScales()));
    assertEquals(2, median.signalVariance());
    assertEquals(0.2, median.noiseVariance());
  }

  /**
   * {@code categorical=overlap}: each enum is one input with one length scale under the sparsity
   * prior. On points whose target is a sine of a real plus a 4-valued enum's effect, the kernel
   * gives a switch of the deciding enum's category a tenth or more of the targets' variance and a
   * switch of the inert enum's under a thousandth, and ranks the deciding enum's relevance a
   * hundred times the inert one's; the four inert reals stay flat. Why a variance and not a length
   * scale alone: the length scale trades against the signal variance, which the draws take large on
   * noise-free data, and only the two together, the variance of a category's own effect, are pinned
   * by the data.
   */
  @Test
  void overlapKernelGivesADecidingEnumItsEffectAndAnInertEnumNone() {
    double[][] unit = mixedPoints();
    GpEnsemble model =
        new SaasboFitter()
            .withCategoricalKernel(CategoricalKernel.OVERLAP)
            .fit(unit, mixedTargets(unit), null, MIXED_BLOCKS, 1L);
    double[] ls = model.medianLengthScales();
    assertEquals(7, ls.length, "one length scale per knob: " + Arrays.toString(ls));
    assertTrue(switchVariance(model, 1) > 0.1, "deciding enum: " + Arrays.toString(ls));
    assertTrue(switchVariance(model, 3) < 1e-3, "inert enum: " + Arrays.toString(ls));
    assertTrue(
        model.relevance(1, 4) > 100 * model.relevance(6, 4),
        "relevance of the deciding enum against the inert one: "
            + model.relevance(1, 4)
            + " vs "
            + model.relevance(6, 4));
    assertTrue(ls[0] < 5, "relevant real: " + Arrays.toString(ls));
    for (int d : new int[] {2, 4, 5, 6}) {
      assertTrue(ls[d] > 10, "inert real " + d + ": " + Arrays.toString(ls));
    }
  }

  /**
   * The median over the draws of the variance the product kernel gives a category's own effect,
   * {@code s (1 - exp(-1 / l))}: the overlap kernel is a shared part plus an independent effect per
   * category of that variance.
   */
  private static double switchVariance(GpEnsemble model, int input) {
    return GpEnsemble.median(
        model.members().stream()
            .map(GaussianProcess::hyperparameters)
            .mapToDouble(h -> h.signalVariance() * (1 - Math.exp(-1 / h.lengthScales()[input])))
            .toArray());
  }

  /**
   * Without categorical knobs the overlap fitter's chain is the one-hot fitter's to the bit, so the
   * option changes nothing on a space of numeric knobs (the benchmark's figures of such functions
   * carry over).
   */
  @Test
  void overlapWithoutCategoricalKnobsDrawsTheSameChainAsOneHot() {
    double[][] x = points();
    double[] y = targets(x);
    GpEnsemble oneHot = new SaasboFitter(64, 16, 32, true, false).fit(x, y, null, List.of(), 3L);
    GpEnsemble overlap =
        new SaasboFitter(64, 16, 32, true, false)
            .withCategoricalKernel(CategoricalKernel.OVERLAP)
            .fit(x, y, null, List.of(), 3L);
    for (int i = 0; i < oneHot.members().size(); i++) {
      assertTrue(
          Arrays.equals(
              oneHot.members().get(i).hyperparameters().lengthScales(),
              overlap.members().get(i).hyperparameters().lengthScales()),
          "draw " + i);
    }
  }

  /** Unit cube: a real, a 4-valued enum (dims 1-4), a real, a 4-valued enum (6-9), 3 reals. */
  private static final int MIXED_UNIT_DIMS = 13;

  private static final List<CategoricalBlock> MIXED_BLOCKS =
      List.of(new CategoricalBlock(1, 4), new CategoricalBlock(6, 4));

  /** Kernel inputs: x0, enum a, x1, enum b, then the 3 reals after the second block. */
  private static final boolean[] MIXED_CATEGORICAL = {
    false, true, false, true, false, false, false
  };

  /** 30 random points: uniform reals, each enum's category drawn evenly. */
  private static double[][] mixedPoints() {
    Random r = new Random(6);
    double[][] out = new double[30][MIXED_UNIT_DIMS];
    for (double[] p : out) {
      for (int d = 0; d < MIXED_UNIT_DIMS; d++) {
        p[d] = r.nextDouble();
      }
      Arrays.fill(p, 1, 5, 0);
      Arrays.fill(p, 6, 10, 0);
      p[1 + r.nextInt(4)] = 1;
      p[6 + r.nextInt(4)] = 1;
    }
    return out;
  }

  /** Standardized: a sine of the first real plus the first enum's effect; the rest inert. */
  private static double[] mixedTargets(double[][] unit) {
    double[] effect = {0, 1.2, -0.8, 0.5};
    double[] y = new double[unit.length];
    for (int i = 0; i < unit.length; i++) {
      int a = 0;
      for (int c = 0; c < 4; c++) {
        if (unit[i][1 + c] == 1) {
          a = c;
        }
      }
      y[i] = Math.sin(3 * unit[i][0]) + effect[a];
    }
    double mean = Arrays.stream(y).average().orElse(0);
    double sd = Math.sqrt(Arrays.stream(y).map(v -> (v - mean) * (v - mean)).average().orElse(1));
    return Arrays.stream(y).map(v -> (v - mean) / sd).toArray();
  }

  @Test
  void logPosteriorGradientMatchesFiniteDifferences() {
    double[][] x = points();
    double[] y = targets(x);
    double[] known = new double[x.length];
    known[3] = 0.05;
    assertGradientMatchesFiniteDifferences(new SaasPosterior(x, y, known));
  }

  /**
   * With categorical inputs, compared by equality in the likelihood, the gradient still matches.
   */
  @Test
  void logPosteriorGradientWithCategoricalInputsMatchesFiniteDifferences() {
    double[][] unit = mixedPoints();
    KernelInputs inputs = KernelInputs.withBlocks(MIXED_UNIT_DIMS, MIXED_BLOCKS);
    assertTrue(Arrays.equals(MIXED_CATEGORICAL, inputs.categoricalMask()));
    assertGradientMatchesFiniteDifferences(
        new SaasPosterior(inputs.project(unit), mixedTargets(unit), null, MIXED_CATEGORICAL));
  }

  private static void assertGradientMatchesFiniteDifferences(SaasPosterior posterior) {
    Random r = new Random(2);
    double[] q = posterior.start();
    for (int i = 0; i < q.length; i++) {
      q[i] += 0.5 * r.nextGaussian();
    }
    GradientCheck.assertMatchesFiniteDifferences(posterior::value, q, 1e-5, 1e-4);
  }
}
