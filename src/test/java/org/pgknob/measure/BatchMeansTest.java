package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BatchMeansTest {
  /**
   * An AR(1) series x[t] = mu + phi (x[t-1] - mu) + e[t], e ~ N(0, sigma^2), started stationary.
   */
  static double[] ar1(Random random, int n, double mu, double phi, double sigma) {
    double[] x = new double[n];
    double stationarySd = sigma / Math.sqrt(1 - phi * phi);
    double prev = random.nextGaussian() * stationarySd;
    for (int t = 0; t < n; t++) {
      prev = phi * prev + sigma * random.nextGaussian();
      x[t] = mu + prev;
    }
    return x;
  }

  /** The true variance of the mean of n AR(1) values (exact, not the large-n approximation). */
  static double ar1MeanVariance(int n, double phi, double sigma) {
    double gamma0 = sigma * sigma / (1 - phi * phi);
    double sum = n;
    for (int k = 1; k < n; k++) {
      sum += 2 * (n - k) * Math.pow(phi, k);
    }
    return gamma0 * sum / ((double) n * n);
  }

  @Test
  void independentSecondsGiveTheClassicStandardErrorOnAverage() {
    Random random = new Random(11);
    int n = 400;
    double sumSquares = 0;
    int reps = 400;
    for (int r = 0; r < reps; r++) {
      double[] x = ar1(random, n, 1000, 0, 50);
      sumSquares += Math.pow(BatchMeans.of(x).standardError(), 2);
    }
    double trueVariance = 50.0 * 50 / n;
    assertEquals(1.0, sumSquares / reps / trueVariance, 0.15);
  }

  @Test
  void autocorrelatedSecondsAreNotMistakenForPrecision() {
    Random random = new Random(12);
    int n = 400;
    double phi = 0.6;
    double sigma = 30;
    int reps = 400;
    double batchSquares = 0;
    double naiveSquares = 0;
    for (int r = 0; r < reps; r++) {
      double[] x = ar1(random, n, 1000, phi, sigma);
      batchSquares += Math.pow(BatchMeans.of(x).standardError(), 2);
      naiveSquares += Math.pow(Stats.sampleSd(x) / Math.sqrt(n), 2);
    }
    double truth = ar1MeanVariance(n, phi, sigma);
    // The naive estimate is about (1 - phi) / (1 + phi) = 1/4 of the truth; batch means, with 20
    // seconds per batch, lose a little to the correlation across batch edges.
    assertEquals(0.25, naiveSquares / reps / truth, 0.05);
    assertEquals(1.0, batchSquares / reps / truth, 0.2);
  }

  @Test
  void shortWindowUsesAtLeastThreeBatchesAndKeepsTheWholeMean() {
    double[] x = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150};
    WindowError e = BatchMeans.of(x);
    assertEquals(80, e.mean(), 1e-9);
    assertEquals(3, e.batchSeconds());
    assertEquals(5, e.batches());
    // batch means 20, 50, 80, 110, 140: sd 47.43, se 21.21
    assertEquals(Math.sqrt(2250.0) / Math.sqrt(5), e.standardError(), 1e-9);
    assertEquals(e.standardError() / 80, e.relativeError(), 1e-12);
  }

  @Test
  void tooShortAWindowIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> BatchMeans.of(new double[] {1, 2}));
  }

  @Test
  void constantWindowHasNoError() {
    double[] x = new double[30];
    java.util.Arrays.fill(x, 7);
    assertEquals(0, BatchMeans.of(x).standardError(), 0);
    assertTrue(BatchMeans.of(x).batches() >= BatchMeans.MIN_BATCHES);
  }
}
