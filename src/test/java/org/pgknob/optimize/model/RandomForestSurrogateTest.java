package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RandomForestSurrogateTest {
  @Test
  void fitsAndPredictsWithoutNativeBlas() {
    // the pom excludes org.bytedeco (Smile's native BLAS/LAPACK); trees must not need it
    assertThrows(
        ClassNotFoundException.class, () -> Class.forName("org.bytedeco.openblas.global.openblas"));
    Random r = new Random(1);
    int n = 60;
    double[][] x = new double[n][2];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = r.nextDouble();
      x[i][1] = r.nextDouble();
      y[i] = x[i][0] < 0.5 ? 0 : 10;
    }
    RandomForestSurrogate rf = RandomForestSurrogate.fit(x, y, 7);
    assertEquals(0, rf.predict(new double[] {0.2, 0.5}).mean(), 1.0);
    assertEquals(10, rf.predict(new double[] {0.8, 0.5}).mean(), 1.0);
    assertTrue(rf.relevance(0, 1) > rf.relevance(1, 1), "x0 decides, x1 does not");
  }

  @Test
  void treesDisagreeMoreNearTheStepThanFarFromIt() {
    Random r = new Random(2);
    int n = 80;
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = r.nextDouble();
      y[i] = x[i][0] < 0.5 ? 0 : 10;
    }
    RandomForestSurrogate rf = RandomForestSurrogate.fit(x, y, 3);
    assertTrue(
        rf.predict(new double[] {0.5}).variance() > rf.predict(new double[] {0.1}).variance());
  }

  @Test
  void sameSeedGivesTheSameForest() {
    double[][] x = {{0.1}, {0.3}, {0.5}, {0.7}, {0.9}, {0.2}, {0.8}};
    double[] y = {1, 3, 2, 5, 4, 2, 6};
    assertEquals(
        RandomForestSurrogate.fit(x, y, 5).predict(new double[] {0.6}),
        RandomForestSurrogate.fit(x, y, 5).predict(new double[] {0.6}));
  }
}
