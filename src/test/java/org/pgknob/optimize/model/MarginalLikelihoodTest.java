package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MarginalLikelihoodTest {
  @Test
  void likelihoodGradientMatchesFiniteDifferences() {
    assertGradientMatchesFiniteDifferences(
        new double[] {Math.log(0.4), Math.log(1.3), Math.log(0.7), Math.log(1.1), Math.log(0.02)});
  }

  @Test
  void likelihoodGradientWithAnAdditivePartMatchesFiniteDifferences() {
    assertGradientMatchesFiniteDifferences(
        new double[] {
          Math.log(0.4), Math.log(1.3), Math.log(0.7), Math.log(1.1), Math.log(0.02), Math.log(0.6)
        });
  }

  @Test
  void likelihoodGradientWithTheAdditivePartAloneMatchesFiniteDifferences() {
    assertGradientMatchesFiniteDifferences(
        new double[] {
          Math.log(0.4),
          Math.log(1.3),
          Math.log(0.7),
          Double.NEGATIVE_INFINITY,
          Math.log(0.02),
          Math.log(0.6)
        });
  }

  @Test
  void likelihoodGradientWithKnownNoiseMatchesFiniteDifferences() {
    double[] known = new double[12];
    for (int i = 0; i < known.length; i += 3) {
      known[i] = 0.05 * (1 + i);
    }
    assertGradientMatchesFiniteDifferences(
        new double[] {
          Math.log(0.4), Math.log(1.3), Math.log(0.7), Math.log(1.1), Math.log(0.02), Math.log(0.6)
        },
        known);
  }

  private static void assertGradientMatchesFiniteDifferences(double[] p) {
    assertGradientMatchesFiniteDifferences(p, null);
  }

  private static void assertGradientMatchesFiniteDifferences(double[] p, double[] known) {
    Random r = new Random(3);
    int n = 12;
    double[][] x = new double[n][3];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      for (int d = 0; d < 3; d++) {
        x[i][d] = r.nextDouble();
      }
      y[i] = Math.sin(5 * x[i][0]) + 0.3 * x[i][1] + 0.05 * r.nextGaussian();
    }
    // the likelihood itself is the conditioned model's, whose kernel a dense solve checks
    assertLikelihoodAndGradient(
        h -> GaussianProcess.condition(x, y, known, 0, h), x, y, known, null, p);
  }

  /**
   * Asserts that the likelihood at the log parameters {@code p} is that of the model {@code
   * condition} builds with those hyperparameters (whose kernel is the predictions' code, not the
   * likelihood's own loops), and that the MAP objective's gradient there matches finite
   * differences. {@code x} are the kernel inputs, {@code categorical} marks those compared by
   * equality (null for none).
   */
  static void assertLikelihoodAndGradient(
      Function<GpHyperparameters, GaussianProcess> condition,
      double[][] x,
      double[] y,
      double[] known,
      boolean[] categorical,
      double[] p) {
    int dims = x[0].length;
    double[] lengths = new double[dims];
    for (int d = 0; d < dims; d++) {
      lengths[d] = Math.exp(p[d]);
    }
    GpHyperparameters hyper =
        new GpHyperparameters(
            lengths,
            Math.exp(p[dims]),
            Math.exp(p[dims + 1]),
            p.length > dims + 2 ? Math.exp(p[dims + 2]) : 0);
    assertEquals(
        -condition.apply(hyper).logMarginalLikelihood(),
        MarginalLikelihood.negativeLogLikelihood(x, y, known, categorical, p, new double[p.length]),
        1e-9);
    LengthScalePrior prior = new LengthScalePrior.DimensionScaled(1.0, 1.5);
    GradientCheck.assertMatchesFiniteDifferences(
        (point, gradient) ->
            MarginalLikelihood.negativeLogPosterior(
                x, y, known, categorical, point, gradient, prior, NoisePrior.USUAL),
        p,
        1e-6,
        1e-5);
  }

  @Test
  void leaveOneOutLogDensityEqualsConditioningOnTheOthers() {
    Random r = new Random(9);
    int n = 9;
    double[][] x = GaussianProcessTest.unitCube(r, n, 3);
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      y[i] = Math.sin(4 * x[i][0]) + x[i][1] + 0.1 * r.nextGaussian();
    }
    GpHyperparameters h = new GpHyperparameters(new double[] {0.3, 0.8, 2.0}, 0.7, 0.02, 0.4);
    double expected = 0;
    for (int i = 0; i < n; i++) {
      double[][] others = new double[n - 1][];
      double[] rest = new double[n - 1];
      for (int j = 0, k = 0; j < n; j++) {
        if (j != i) {
          others[k] = x[j];
          rest[k++] = y[j];
        }
      }
      Prediction p = GaussianProcess.condition(others, rest, 0, h).predict(x[i]);
      // the held-out observation is noisy: latent variance plus noise
      double variance = p.variance() + h.noiseVariance();
      double residual = y[i] - p.mean();
      expected += -0.5 * Math.log(2 * Math.PI * variance) - residual * residual / (2 * variance);
    }
    assertEquals(expected, MarginalLikelihood.leaveOneOutLogDensity(x, y, null, null, h), 1e-8);
  }
}
