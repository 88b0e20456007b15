package org.pgknob.optimize.acquisition;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FeasibilityModelTest {
  @Test
  void failuresLowerTheProbabilityInTheirNeighbourhoodOnly() {
    Random r = new Random(1);
    int n = 40;
    double[][] x = new double[n][2];
    boolean[] runs = new boolean[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = r.nextDouble();
      x[i][1] = r.nextDouble();
      runs[i] = x[i][0] < 0.7; // everything right of 0.7 crashes
    }
    FeasibilityModel model = FeasibilityModel.fit(x, runs, 3);
    assertTrue(model.probability(new double[] {0.9, 0.5}) < 0.2, "inside the failing region");
    assertTrue(model.probability(new double[] {0.2, 0.5}) > 0.8, "far inside the working region");
  }

  @Test
  void aLoneFailureIsNotExplainedAwayAsNoise() {
    Random r = new Random(2);
    int n = 30;
    double[][] x = new double[n][2];
    boolean[] runs = new boolean[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = r.nextDouble();
      x[i][1] = r.nextDouble();
      runs[i] = true;
    }
    x[0] = new double[] {0.5, 0.5};
    runs[0] = false;
    FeasibilityModel model = FeasibilityModel.fit(x, runs, 4);
    assertTrue(model.probability(new double[] {0.5, 0.5}) < 0.3);
    assertTrue(
        model.probability(new double[] {0.5, 0.5}) < model.probability(new double[] {0.1, 0.9}));
  }
}
