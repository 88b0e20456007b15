package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;
import org.junit.jupiter.api.Test;

class GaussianProcessTest {
  /** The Matérn 5/2 formula written out again, independently of the class under test. */
  private static double matern(double a, double b, double length, double signal) {
    double r = Math.abs(a - b) / length;
    return signal * (1 + Math.sqrt(5) * r + 5 * r * r / 3) * Math.exp(-Math.sqrt(5) * r);
  }

  @Test
  void predictionsMatchTheClosedFormOnTwoPoints() {
    double length = 0.3;
    double signal = 1.5;
    double noise = 0.01;
    double[][] x = {{0.2}, {0.7}};
    double[] y = {1.0, -0.5};
    GaussianProcess gp =
        GaussianProcess.condition(
            x, y, 0, new GpHyperparameters(new double[] {length}, signal, noise));
    double k11 = signal + noise;
    double k12 = matern(0.2, 0.7, length, signal);
    double det = k11 * k11 - k12 * k12;
    for (double star : new double[] {0.0, 0.2, 0.45, 0.9}) {
      double a = matern(star, 0.2, length, signal);
      double b = matern(star, 0.7, length, signal);
      // K^-1 = [[k11, -k12], [-k12, k11]] / det
      double w1 = (k11 * y[0] - k12 * y[1]) / det;
      double w2 = (-k12 * y[0] + k11 * y[1]) / det;
      double mean = a * w1 + b * w2;
      double quad = (a * (k11 * a - k12 * b) + b * (-k12 * a + k11 * b)) / det;
      double variance = signal - quad;
      Prediction p = gp.predict(new double[] {star});
      assertEquals(mean, p.mean(), 1e-10, "mean at " + star);
      assertEquals(variance, p.variance(), 1e-10, "variance at " + star);
    }
  }

  @Test
  void theDifferenceOfTwoPointsHasTheirPosteriorCovarianceInItsVariance() {
    double length = 0.3;
    double signal = 1.5;
    double noise = 0.01;
    double[][] x = {{0.2}, {0.7}};
    double[] y = {1.0, -0.5};
    GaussianProcess gp =
        GaussianProcess.condition(
            x, y, 0, new GpHyperparameters(new double[] {length}, signal, noise));
    double k11 = signal + noise;
    double k12 = matern(0.2, 0.7, length, signal);
    double det = k11 * k11 - k12 * k12;
    double[][] pairs = {{0.1, 0.15}, {0.2, 0.9}, {0.45, 0.45}, {0.0, 1.0}};
    for (double[] st : pairs) {
      double s = st[0];
      double t = st[1];
      double[] ks = {matern(s, 0.2, length, signal), matern(s, 0.7, length, signal)};
      double[] kt = {matern(t, 0.2, length, signal), matern(t, 0.7, length, signal)};
      // k_s^T K^-1 k_t with K^-1 = [[k11, -k12], [-k12, k11]] / det
      double explained =
          (ks[0] * (k11 * kt[0] - k12 * kt[1]) + ks[1] * (-k12 * kt[0] + k11 * kt[1])) / det;
      double covariance = matern(s, t, length, signal) - explained;
      Prediction ps = gp.predict(new double[] {s});
      Prediction pt = gp.predict(new double[] {t});
      Prediction d = gp.difference(new double[] {s}, new double[] {t});
      assertEquals(ps.mean() - pt.mean(), d.mean(), 1e-10, "mean at " + s + ", " + t);
      assertEquals(
          ps.variance() + pt.variance() - 2 * covariance,
          d.variance(),
          1e-10,
          "variance at " + s + ", " + t);
    }
  }

  @Test
  void aMoveAlongAnInertDimensionIsNearlyCertainWhereEachValueIsNot() {
    // dimension 0 matters (length 0.2), dimension 1 is inert (length 100); few observations, so
    // each value is uncertain away from them
    GpHyperparameters h = new GpHyperparameters(new double[] {0.2, 100}, 1.0, 0.05);
    double[][] x = {{0.1, 0.5}, {0.9, 0.5}};
    GaussianProcess gp = GaussianProcess.condition(x, new double[] {1, -1}, 0, h);
    double[] a = {0.5, 0.0};
    double[] inertMove = {0.5, 1.0};
    double[] relevantMove = {0.8, 0.0};
    double each = gp.predict(a).sd();
    assertTrue(each > 0.5, "the value itself is uncertain: " + each);
    assertTrue(gp.difference(a, inertMove).sd() < 0.05 * each, "inert: nearly certain");
    assertTrue(gp.difference(a, relevantMove).sd() > 0.5 * each, "relevant: uncertain");
  }

  /** The full kernel written out pair by pair: product part plus the mean of 1-D Matérns. */
  private static double kernel(double[] a, double[] b, GpHyperparameters h) {
    double[] ls = h.lengthScales();
    double r2 = 0;
    double additive = 0;
    for (int d = 0; d < a.length; d++) {
      r2 += (a[d] - b[d]) * (a[d] - b[d]) / (ls[d] * ls[d]);
      additive += matern(a[d], b[d], ls[d], 1);
    }
    double r = Math.sqrt(r2);
    double product = (1 + Math.sqrt(5) * r + 5 * r * r / 3) * Math.exp(-Math.sqrt(5) * r);
    return h.signalVariance() * product + h.additiveVariance() * additive / a.length;
  }

  @Test
  void predictionsMatchADenseSolveWithEitherKernelPartOrBoth() {
    Random r = new Random(11);
    double[][] x = unitCube(r, 25, 4);
    double[] y = new double[x.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = Math.sin(4 * x[i][0]) + x[i][1] * x[i][2] + 0.1 * r.nextGaussian();
    }
    double[] ls = {0.3, 0.8, 0.5, 2.0};
    for (GpHyperparameters h :
        new GpHyperparameters[] {
          new GpHyperparameters(ls, 0.9, 0.02, 0),
          new GpHyperparameters(ls, 0, 0.02, 1.3),
          new GpHyperparameters(ls, 0.6, 0.02, 0.7)
        }) {
      GaussianProcess gp = GaussianProcess.condition(x, y, 0.1, h);
      int n = x.length;
      double[][] k = new double[n][n];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          k[i][j] = kernel(x[i], x[j], h) + (i == j ? h.noiseVariance() : 0);
        }
      }
      var solver = new LUDecomposition(new Array2DRowRealMatrix(k)).getSolver();
      double[] centered = new double[n];
      for (int i = 0; i < n; i++) {
        centered[i] = y[i] - 0.1;
      }
      double[] alpha = solver.solve(new ArrayRealVector(centered)).toArray();
      double[][] points = unitCube(r, 20, 4);
      // points sharing coordinates with an observation: the additive part's equal-coordinate case
      points[0] = x[3].clone();
      points[1] = new double[] {x[5][0], x[5][1], 0.5, 0.5};
      for (double[] p : points) {
        double[] ks = new double[n];
        for (int i = 0; i < n; i++) {
          ks[i] = kernel(p, x[i], h);
        }
        double mean = 0.1;
        for (int i = 0; i < n; i++) {
          mean += ks[i] * alpha[i];
        }
        double[] w = solver.solve(new ArrayRealVector(ks)).toArray();
        double variance = h.priorVariance();
        for (int i = 0; i < n; i++) {
          variance -= ks[i] * w[i];
        }
        Prediction got = gp.predict(p);
        assertEquals(mean, got.mean(), 1e-9, "mean with " + h);
        assertEquals(mean, gp.mean(p), 1e-9, "mean alone with " + h);
        assertEquals(Math.max(0, variance), got.variance(), 1e-9, "variance with " + h);
      }
    }
  }

  @Test
  void optimisticPredictionBoundsTheVarianceAndKeepsTheMean() {
    Random r = new Random(5);
    double[][] x = unitCube(r, 40, 3);
    double[] y = new double[x.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = x[i][0] - x[i][1] * x[i][1];
    }
    GpHyperparameters h = new GpHyperparameters(new double[] {0.2, 0.4, 1.5}, 0.8, 0.01, 0.5);
    GaussianProcess gp = GaussianProcess.condition(x, y, 0, h);
    int tighter = 0;
    for (double[] p : unitCube(r, 200, 3)) {
      Prediction exact = gp.predict(p);
      Prediction bound = gp.optimistic(p).orElseThrow();
      assertEquals(exact.mean(), bound.mean(), 1e-12);
      assertTrue(
          bound.variance() >= exact.variance(),
          "bound " + bound.variance() + " under the variance " + exact.variance());
      if (bound.variance() < h.priorVariance() - 1e-6) {
        tighter++;
      }
    }
    assertTrue(tighter > 150, "the bound is below the prior variance near data: " + tighter);
    // with one observation the bound is the posterior variance itself
    double[][] one = {{0.3, 0.3, 0.3}};
    GaussianProcess single = GaussianProcess.condition(one, new double[] {1}, 0, h);
    double[] p = {0.35, 0.2, 0.5};
    assertEquals(single.predict(p).variance(), single.optimistic(p).orElseThrow().variance(), 1e-9);
  }

  @Test
  void choleskyFactorAndInverseReproduceTheMatrix() {
    Random r = new Random(2);
    double[][] x = unitCube(r, 30, 3);
    double[][] k =
        GaussianProcess.kernelMatrix(
            x, new GpHyperparameters(new double[] {0.3, 0.5, 0.7}, 1.0, 1e-3, 0.4));
    double[][] lower = GaussianProcess.cholesky(k);
    double[][] inverse = MarginalLikelihood.inverseFromCholesky(lower);
    int n = k.length;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double product = 0;
        double identity = 0;
        for (int t = 0; t < n; t++) {
          product += lower[i][t] * lower[j][t];
          identity += k[i][t] * inverse[t][j];
        }
        assertEquals(k[i][j], product, 1e-12, "L L^T at " + i + "," + j);
        assertEquals(i == j ? 1 : 0, identity, 1e-8, "K K^-1 at " + i + "," + j);
        if (j > i) {
          assertEquals(0, lower[i][j], "upper part of L");
        }
      }
    }
  }

  @Test
  void choleskyAddsJitterToASingularMatrixAndRefusesAnIndefiniteOne() {
    // rank 1: [1 1; 1 1] factors only with a little jitter on the diagonal
    double[][] lower = GaussianProcess.cholesky(new double[][] {{1, 1}, {1, 1}});
    assertEquals(1, lower[0][0], 1e-9);
    assertTrue(lower[1][1] > 0 && lower[1][1] < 1e-3, "jittered pivot " + lower[1][1]);
    assertThrows(
        NonPositiveDefiniteMatrixException.class,
        () -> GaussianProcess.cholesky(new double[][] {{1, 2}, {2, 1}}));
  }

  @Test
  void logMarginalLikelihoodMatchesTheClosedFormOnTwoPoints() {
    double[][] x = {{0.1, 0.5}, {0.4, 0.2}};
    double[] y = {0.3, -1.2};
    GpHyperparameters h = new GpHyperparameters(new double[] {0.5, 2.0}, 0.8, 0.05);
    GaussianProcess gp = GaussianProcess.condition(x, y, 0, h);
    double[][] k = GaussianProcess.kernelMatrix(x, h);
    double det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
    double quad =
        (y[0] * (k[1][1] * y[0] - k[0][1] * y[1]) + y[1] * (-k[1][0] * y[0] + k[0][0] * y[1]))
            / det;
    double expected = -0.5 * quad - 0.5 * Math.log(det) - Math.log(2 * Math.PI);
    assertEquals(expected, gp.logMarginalLikelihood(), 1e-10);
  }

  @Test
  void irrelevantDimensionGetsALongLengthScale() {
    Random r = new Random(1);
    int n = 30;
    double[][] x = new double[n][2];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = r.nextDouble();
      x[i][1] = r.nextDouble();
      y[i] = Math.sin(6 * x[i][0]);
    }
    standardize(y);
    GaussianProcess gp = GpFitter.fit(x, y, new Random(2), null);
    double[] ls = gp.hyperparameters().lengthScales();
    assertTrue(ls[1] > 1 && ls[1] > 5 * ls[0], "length scales " + ls[0] + ", " + ls[1]);
    assertTrue(gp.relevance(0, 1) > 5 * gp.relevance(1, 1));
  }

  @Test
  void additivePartCarriesEachKnobsEffectToCombinationsNeverTried() {
    // a sum of one-dimensional effects in 6 dimensions, 2 of them irrelevant: from 30 points the
    // additive kernel predicts unseen combinations far better than the product kernel alone
    Random r = new Random(7);
    int dims = 6;
    double[][] x = new double[30][dims];
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      for (int d = 0; d < dims; d++) {
        x[i][d] = r.nextDouble();
      }
      y[i] = sumOfEffects(x[i]);
    }
    standardize(y);
    double[] mean = {0};
    double[] sd = {0};
    meanAndSd(x, mean, sd);
    GaussianProcess additive = new GpFitter().fit(x, y, 11L);
    GaussianProcess product = GpFitter.productOnly().fit(x, y, 11L);
    assertTrue(additive.hyperparameters().additiveVariance() > 0);
    assertEquals(0, product.hyperparameters().additiveVariance());
    double additiveError = 0;
    double productError = 0;
    int tests = 300;
    for (int t = 0; t < tests; t++) {
      double[] p = new double[dims];
      for (int d = 0; d < dims; d++) {
        p[d] = r.nextDouble();
      }
      double truth = (sumOfEffects(p) - mean[0]) / sd[0];
      additiveError += Math.pow(additive.predict(p).mean() - truth, 2);
      productError += Math.pow(product.predict(p).mean() - truth, 2);
    }
    double additiveRmse = Math.sqrt(additiveError / tests);
    double productRmse = Math.sqrt(productError / tests);
    assertTrue(
        additiveRmse < 0.6 * productRmse,
        "additive RMSE " + additiveRmse + ", product RMSE " + productRmse);
  }

  @Test
  void hyperparameterSubsetKeepsTheBestHalfAndSpreadsTheRest() {
    double[] y = new double[200];
    for (int i = 0; i < y.length; i++) {
      y[i] = (i * 37) % 200; // a permutation of 0..199
    }
    int[] chosen = GpFitter.subset(y, 60);
    assertEquals(60, chosen.length);
    assertEquals(60, java.util.Arrays.stream(chosen).distinct().count());
    for (int i = 0; i < 30; i++) {
      assertEquals(199 - i, y[chosen[i]], "the " + i + "th best");
    }
    // the other 30 come from all over the history, not from one end of it
    int[] rest = java.util.Arrays.copyOfRange(chosen, 30, 60);
    assertTrue(java.util.Arrays.stream(rest).min().orElseThrow() < 20);
    assertTrue(java.util.Arrays.stream(rest).max().orElseThrow() > 180);
  }

  @Test
  void fitterDropsTheProductPartWhenEffectsAddUp() {
    Random r = new Random(7);
    double[][] x = unitCube(r, 30, 6);
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = sumOfEffects(x[i]) + 0.02 * r.nextGaussian();
    }
    standardize(y);
    GpHyperparameters h = new GpFitter().fit(x, y, 3L).hyperparameters();
    assertEquals(0, h.signalVariance());
    assertTrue(h.additiveVariance() > 0);
  }

  @Test
  void fitterKeepsTheProductPartWhenKnobsInteract() {
    // a saddle: each knob's effect reverses with the other's setting, which no sum of
    // one-knob curves can fit
    Random r = new Random(8);
    double[][] x = unitCube(r, 30, 3);
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = 8 * (x[i][0] - 0.5) * (x[i][1] - 0.5) + 0.02 * r.nextGaussian();
    }
    standardize(y);
    GpHyperparameters h = new GpFitter().fit(x, y, 3L).hyperparameters();
    assertTrue(h.signalVariance() > 0.1, "signal variance " + h.signalVariance());
  }

  private static double sumOfEffects(double[] p) {
    return Math.sin(6 * p[0]) + Math.cos(5 * p[1]) + 2 * (p[2] - 0.5) * (p[2] - 0.5) + p[3];
  }

  /** The mean and sd that standardize() used, recomputed from the same points. */
  private static void meanAndSd(double[][] x, double[] mean, double[] sd) {
    double m = 0;
    for (double[] p : x) {
      m += sumOfEffects(p);
    }
    m /= x.length;
    double s = 0;
    for (double[] p : x) {
      s += Math.pow(sumOfEffects(p) - m, 2);
    }
    mean[0] = m;
    sd[0] = Math.sqrt(s / (x.length - 1));
  }

  @Test
  void fittedModelInterpolatesASmoothFunction() {
    Random r = new Random(4);
    int n = 25;
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = r.nextDouble();
      y[i] = Math.cos(4 * x[i][0]);
    }
    GaussianProcess gp = GpFitter.fit(x, y, new Random(5), null);
    for (double t = 0.05; t < 1; t += 0.1) {
      assertEquals(Math.cos(4 * t), gp.predict(new double[] {t}).mean(), 0.05, "at " + t);
    }
  }

  /** {@code n} uniform points in the unit cube of {@code dims} dimensions. */
  static double[][] unitCube(Random r, int n, int dims) {
    double[][] x = new double[n][dims];
    for (double[] p : x) {
      for (int d = 0; d < dims; d++) {
        p[d] = r.nextDouble();
      }
    }
    return x;
  }

  private static void standardize(double[] y) {
    double m = 0;
    for (double v : y) {
      m += v;
    }
    m /= y.length;
    double s = 0;
    for (double v : y) {
      s += (v - m) * (v - m);
    }
    s = Math.sqrt(s / (y.length - 1));
    for (int i = 0; i < y.length; i++) {
      y[i] = (y[i] - m) / s;
    }
  }
}
