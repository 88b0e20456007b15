package org.pgknob.optimize.model;

import java.util.Arrays;
import java.util.Random;

/**
 * The sparsity priors' shared data set: 20 random points of the unit cube whose standardized target
 * depends on inputs 2 and 7 only (a sine of range 2 and a parabola of range 0.7), so a test can ask
 * whether a fit tells the two relevant inputs from the inert rest.
 */
final class TwoRelevantInputs {
  static final int DIMS = 12;
  static final int[] RELEVANT = {2, 7};

  private TwoRelevantInputs() {}

  /** 20 random points of the 12-D cube. */
  static double[][] points() {
    return points(DIMS);
  }

  /** 20 random points of the cube of {@code dims} dimensions (at least 8). */
  static double[][] points(int dims) {
    Random r = new Random(5);
    double[][] x = new double[20][dims];
    for (double[] row : x) {
      for (int d = 0; d < dims; d++) {
        row[d] = r.nextDouble();
      }
    }
    return x;
  }

  /** Standardized targets depending on inputs 2 and 7 only. */
  static double[] targets(double[][] x) {
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = Math.sin(4 * x[i][2]) + 2 * (x[i][7] - 0.4) * (x[i][7] - 0.4);
    }
    double mean = Arrays.stream(y).average().orElse(0);
    double sd = Math.sqrt(Arrays.stream(y).map(v -> (v - mean) * (v - mean)).sum() / y.length);
    return Arrays.stream(y).map(v -> (v - mean) / sd).toArray();
  }

  static boolean relevant(int d) {
    return Arrays.stream(RELEVANT).anyMatch(r -> r == d);
  }
}
