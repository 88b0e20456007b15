package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

/** Central finite differences against an analytic gradient, for the model's objectives. */
final class GradientCheck {
  private GradientCheck() {}

  /** An objective's value at a point; it fills {@code gradient} with its gradient there. */
  interface Objective {
    double value(double[] point, double[] gradient);
  }

  /**
   * Asserts that each coordinate of {@code objective}'s gradient at {@code point} equals the
   * central difference with {@code step}, within {@code tolerance} times max(1, |difference|).
   * Coordinates at infinity (a part of the kernel left out) have no gradient and are skipped.
   */
  static void assertMatchesFiniteDifferences(
      Objective objective, double[] point, double step, double tolerance) {
    int n = point.length;
    double[] gradient = new double[n];
    objective.value(point, gradient);
    for (int i = 0; i < n; i++) {
      if (Double.isInfinite(point[i])) {
        continue;
      }
      double[] up = point.clone();
      double[] down = point.clone();
      up[i] += step;
      down[i] -= step;
      double numeric =
          (objective.value(up, new double[n]) - objective.value(down, new double[n])) / (2 * step);
      assertEquals(
          numeric,
          gradient[i],
          tolerance * Math.max(1, Math.abs(numeric)),
          "coordinate " + i + " of " + Arrays.toString(point));
    }
  }
}
