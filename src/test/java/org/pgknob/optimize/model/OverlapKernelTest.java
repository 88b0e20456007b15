package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The overlap kernel for categorical knobs ({@link CategoricalKernel#OVERLAP}): one input and one
 * length scale per knob, {@code exp(-[c != c'] / l)} in both parts of the kernel.
 */
class OverlapKernelTest {
  /** Unit cube: a real, a 6-valued enum (dims 1-6), a real, a 6-valued enum (dims 8-13). */
  private static final int UNIT_DIMS = 14;

  private static final List<CategoricalBlock> BLOCKS =
      List.of(new CategoricalBlock(1, 6), new CategoricalBlock(8, 6));

  /** Kernel inputs: x0, enum a, x1, enum b. */
  private static final boolean[] CATEGORICAL = {false, true, false, true};

  private static double[] unitPoint(double x0, int a, double x1, int b) {
    double[] p = new double[UNIT_DIMS];
    p[0] = x0;
    p[1 + a] = 1;
    p[7] = x1;
    p[8 + b] = 1;
    return p;
  }

  @Test
  void oneHotBlocksAreReadAsOneInputHoldingTheHotIndex() {
    KernelInputs inputs = KernelInputs.withBlocks(UNIT_DIMS, BLOCKS);
    assertEquals(4, inputs.size());
    assertArrayEquals(new double[] {0.25, 4, 0.75, 0}, inputs.project(unitPoint(0.25, 4, 0.75, 0)));
    assertEquals(1, inputs.inputAt(6));
    assertEquals(3, inputs.inputAt(13));
    assertArrayEquals(CATEGORICAL, inputs.categoricalMask());
    double[] numeric = {0.1, 0.2};
    assertSame(numeric, KernelInputs.identity(2).project(numeric), "no copy without blocks");
  }

  @Test
  void kernelMatrixIsTheMaternOfTheRealsTimesTheOverlapOfTheCategoriesPlusTheAdditiveSum() {
    double[] ls = {0.4, 1.5, 0.7, 3.0};
    GpHyperparameters h = new GpHyperparameters(ls, 1.3, 0.01, 0.6);
    double[][] x = {{0.1, 2, 0.9, 5}, {0.3, 2, 0.2, 1}, {0.8, 0, 0.5, 5}};
    double[][] k = GaussianProcess.kernelMatrix(x, h, null, CATEGORICAL);
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < x.length; j++) {
        double r2 = 0;
        double product = 1;
        double sum = 0;
        for (int d = 0; d < ls.length; d++) {
          if (CATEGORICAL[d]) {
            double same = x[i][d] == x[j][d] ? 1 : Math.exp(-1 / ls[d]);
            product *= same;
            sum += same;
          } else {
            double r = Math.abs(x[i][d] - x[j][d]) / ls[d];
            r2 += r * r;
            sum += MaternKernel.correlation(r);
          }
        }
        double expected =
            1.3 * MaternKernel.correlation(Math.sqrt(r2)) * product
                + 0.6 * sum / ls.length
                + (i == j ? 0.01 : 0);
        assertEquals(expected, k[i][j], 1e-12, "entry " + i + ", " + j);
      }
    }
  }

  @Test
  void likelihoodAndItsGradientMatchTheConditionedModelAndFiniteDifferences() {
    // product and additive parts, the product alone, the additive part alone
    assertLikelihoodAndGradient(new double[] {-0.5, 0.3, -0.2, 1.0, 0.2, -3, -0.4});
    assertLikelihoodAndGradient(new double[] {-0.9, -0.6, 0.1, 0.5, 0.0, -2.5});
    assertLikelihoodAndGradient(
        new double[] {-0.3, 0.4, -0.7, -1.2, Double.NEGATIVE_INFINITY, -3, 0.3});
  }

  private static void assertLikelihoodAndGradient(double[] p) {
    Random r = new Random(4);
    int n = 14;
    double[][] unit = new double[n][];
    double[] y = new double[n];
    double[] known = new double[n];
    for (int i = 0; i < n; i++) {
      unit[i] = unitPoint(r.nextDouble(), r.nextInt(6), r.nextDouble(), r.nextInt(6));
      y[i] = Math.sin(4 * unit[i][0]) + 0.2 * r.nextGaussian();
      known[i] = 0.01 * r.nextDouble();
    }
    KernelInputs inputs = KernelInputs.withBlocks(UNIT_DIMS, BLOCKS);
    double[][] x = inputs.project(unit);
    // the likelihood's own kernel loops against the predictions' (the conditioned model's)
    MarginalLikelihoodTest.assertLikelihoodAndGradient(
        h -> GaussianProcess.condition(inputs, unit, y, known, 0, h), x, y, known, CATEGORICAL, p);
  }

  @Test
  void irrelevantSixLevelEnumGetsALongLengthScaleAndARelevantOneAShortOne() {
    Random r = new Random(6);
    int n = 30;
    double[] effect = {0, 1.0, -0.8, 0.5, 1.4, -0.3};
    double[][] unit = new double[n][];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      unit[i] = unitPoint(r.nextDouble(), r.nextInt(6), r.nextDouble(), r.nextInt(6));
      int a = hot(unit[i], 1);
      y[i] = Math.sin(3 * unit[i][0]) + effect[a] + 0.05 * r.nextGaussian();
    }
    standardize(y);
    GpFitter fitter = new GpFitter().withCategoricalKernel(CategoricalKernel.OVERLAP);
    GaussianProcess gp = fitter.fit(unit, y, null, BLOCKS, 1L);
    double[] ls = gp.hyperparameters().lengthScales();
    assertEquals(4, ls.length, "one length scale per knob: " + Arrays.toString(ls));
    // a switch of the relevant enum keeps under half the correlation, of the inert one over 90%
    assertTrue(Math.exp(-1 / ls[1]) < 0.5, "relevant enum: " + Arrays.toString(ls));
    assertTrue(Math.exp(-1 / ls[3]) > 0.9, "irrelevant enum: " + Arrays.toString(ls));
    assertTrue(
        gp.relevance(8, 6) < gp.relevance(1, 6) / 5,
        "relevance of the inert enum against the relevant one: "
            + gp.relevance(8, 6)
            + " vs "
            + gp.relevance(1, 6));
  }

  @Test
  void aSwitchOfCategoryIsWorthTheMaternDistanceWithTheSameCorrelation() {
    for (double l : new double[] {0.01, 0.3, 1, 7, 100}) {
      double r = MaternKernel.equivalentDistance(l);
      assertEquals(Math.exp(-1 / l), MaternKernel.correlation(r), 1e-9 * Math.exp(-1 / l));
    }
    assertTrue(MaternKernel.equivalentDistance(0.5) > MaternKernel.equivalentDistance(2));
  }

  private static int hot(double[] point, int offset) {
    for (int i = 0; i < 6; i++) {
      if (point[offset + i] == 1) {
        return i;
      }
    }
    throw new IllegalStateException("no hot dimension");
  }

  private static void standardize(double[] y) {
    double mean = Arrays.stream(y).average().orElse(0);
    double var = Arrays.stream(y).map(v -> (v - mean) * (v - mean)).average().orElse(1);
    for (int i = 0; i < y.length; i++) {
      y[i] = (y[i] - mean) / Math.sqrt(var);
    }
  }
}
