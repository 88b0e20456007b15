package org.pgknob.optimize.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bowl-shaped prior mean: fitted where the walls are worse, absent where they are not. */
class BowlMeanFitterTest {
  private static final int DIMS = 6;

  /** 25 random points of the middle of the cube, [0.2, 0.8] in every input: no wall observed. */
  private static double[][] middlePoints() {
    Random r = new Random(11);
    double[][] x = new double[25][DIMS];
    for (double[] row : x) {
      for (int d = 0; d < DIMS; d++) {
        row[d] = 0.2 + 0.6 * r.nextDouble();
      }
    }
    return x;
  }

  /** Larger is better; {@code sign} -1 is a bowl (walls worse), +1 a dome (walls better). */
  private static double[] targets(double[][] x, double sign) {
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double a = x[i][0] - 0.45;
      double b = x[i][3] - 0.55;
      y[i] = sign * 20 * (a * a + b * b);
    }
    double mean = Arrays.stream(y).average().orElse(0);
    double sd = Math.sqrt(Arrays.stream(y).map(v -> (v - mean) * (v - mean)).sum() / y.length);
    return Arrays.stream(y).map(v -> (v - mean) / sd).toArray();
  }

  private static double[] at(double x0, double x3) {
    double[] p = new double[DIMS];
    Arrays.fill(p, 0.5);
    p[0] = x0;
    p[3] = x3;
    return p;
  }

  @Test
  void wallsWorseThanTheMiddleArePredictedWorseBeyondTheObservations() {
    double[][] x = middlePoints();
    double[] y = targets(x, -1);
    Surrogate bowl = new BowlMeanFitter(new GpFitter()).fit(x, y, 1L);
    Surrogate constant = new GpFitter().fit(x, y, 1L);

    BowlMeanFitter.Shifted shifted = assertInstanceOf(BowlMeanFitter.Shifted.class, bowl);
    assertTrue(shifted.bowl().whole().depth() > 0, "depth " + shifted.bowl());
    double[] corner = at(0, 1);
    double[] middle = at(0.45, 0.55);
    // a constant mean reverts towards the data's mean away from them; the bowl keeps falling
    assertTrue(
        bowl.mean(corner) < constant.mean(corner) - 0.5,
        "corner: bowl " + bowl.mean(corner) + ", constant " + constant.mean(corner));
    assertTrue(bowl.mean(corner) < bowl.mean(middle) - 1);
  }

  @Test
  void wallsBetterThanTheMiddleLeaveTheModelAsItIs() {
    double[][] x = middlePoints();
    double[] y = targets(x, +1);
    Surrogate bowl = new BowlMeanFitter(new GpFitter()).fit(x, y, 1L);
    Surrogate constant = new GpFitter().fit(x, y, 1L);

    assertInstanceOf(GaussianProcess.class, bowl);
    for (double[] p : List.of(at(0, 1), at(0.45, 0.55), at(0.9, 0.1))) {
      assertEquals(constant.predict(p).mean(), bowl.predict(p).mean(), 1e-12);
      assertEquals(constant.predict(p).variance(), bowl.predict(p).variance(), 1e-12);
    }
  }

  @Test
  void theBowlWeighsRelevantInputsAboveInertOnesAndCategoricalOnesNotAtAll() {
    double[][] x = TwoRelevantInputs.points();
    Surrogate model = new GpFitter().fit(x, TwoRelevantInputs.targets(x), 1L);
    List<CategoricalBlock> blocks = List.of(new CategoricalBlock(9, 3));

    double[] w = BowlMeanFitter.relevanceWeights(model, TwoRelevantInputs.DIMS, blocks);

    double inert = 0;
    for (int d = 0; d < TwoRelevantInputs.DIMS; d++) {
      if (!TwoRelevantInputs.relevant(d)) {
        inert = Math.max(inert, w[d]);
      }
    }
    for (int d : TwoRelevantInputs.RELEVANT) {
      assertTrue(w[d] > inert, "relevant " + d + " " + Arrays.toString(w));
    }
    assertEquals(1, Arrays.stream(w).max().orElse(0), 1e-12);
    for (int d = 9; d < 12; d++) {
      assertEquals(0, w[d], "one-hot dimension " + d);
    }
  }

  @Test
  void theDifferenceOfTwoPointsCarriesTheBowl() {
    double[][] x = middlePoints();
    Surrogate bowl = new BowlMeanFitter(new GpFitter()).fit(x, targets(x, -1), 1L);
    double[] a = at(0.05, 0.95);
    double[] b = at(0.45, 0.55);

    Prediction difference = bowl.difference(a, b);

    assertEquals(bowl.mean(a) - bowl.mean(b), difference.mean(), 1e-9);
    assertNotEquals(0, difference.mean());
  }

  @Test
  void wallsWorseAroundAFlatMiddleAreFittedBetterWithTheWallsTermThanByTheWholeBowlAlone() {
    Random r = new Random(3);
    double[][] x = new double[40][DIMS];
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      for (int d = 0; d < DIMS; d++) {
        x[i][d] = r.nextDouble();
      }
      double a = Math.max(0, Math.abs(x[i][0] - 0.5) - 0.3);
      double b = Math.max(0, Math.abs(x[i][3] - 0.5) - 0.3);
      y[i] = -50 * (a * a + b * b);
    }
    double[] weights =
        BowlMeanFitter.relevanceWeights(new GpFitter().fit(x, y, 1L), DIMS, List.of());

    BowlMeanFitter.Bowl bowl = BowlMeanFitter.Bowl.fit(x, y, weights);
    double[] normalized = bowl.weights();
    BowlMeanFitter.Term wholeAlone = BowlMeanFitter.Term.fit(x, y, normalized, 0);

    assertTrue(bowl.walls().depth() > 0, bowl.toString());
    double withWalls = 0;
    double without = 0;
    double mean = Arrays.stream(y).average().orElse(0);
    for (int i = 0; i < x.length; i++) {
      withWalls += Math.pow(y[i] - mean - bowl.mean(x[i]), 2);
      without += Math.pow(y[i] - mean - wholeAlone.mean(normalized, x[i]), 2);
    }
    assertTrue(withWalls < 0.95 * without, "squared error " + withWalls + " against " + without);
  }

  /** 40 random points of the cube, larger better, peaked at 0.25 in input 0 and 0.7 in input 3. */
  private static double[][] offCentrePoints() {
    Random r = new Random(5);
    double[][] x = new double[40][DIMS];
    for (double[] row : x) {
      for (int d = 0; d < DIMS; d++) {
        row[d] = r.nextDouble();
      }
    }
    return x;
  }

  private static double[] offCentreTargets(double[][] x) {
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double a = x[i][0] - 0.25;
      double b = x[i][3] - 0.7;
      y[i] = -20 * (a * a + b * b);
    }
    return y;
  }

  @Test
  void aCentredBowlPeaksWhereTheObservationsDoInTheRelevantInputsAndInTheMiddleOfTheInertOnes() {
    double[][] x = offCentrePoints();
    double[] y = offCentreTargets(x);
    double[] relevance =
        BowlMeanFitter.relevanceWeights(new GpFitter().fit(x, y, 1L), DIMS, List.of());

    BowlMeanFitter.Bowl centred = BowlMeanFitter.Bowl.fit(x, y, relevance, true);
    BowlMeanFitter.Bowl middle = BowlMeanFitter.Bowl.fit(x, y, relevance, false);

    BowlMeanFitter.Term whole = centred.whole();
    assertTrue(whole.depth() > 0, centred.toString());
    assertEquals(0.25, whole.centre(0), 0.1, "input 0");
    assertEquals(0.7, whole.centre(3), 0.1, "input 3");
    for (int d : new int[] {1, 2, 4, 5}) {
      assertEquals(0.5, whole.centre(d), 1e-12, "inert input " + d);
      assertEquals(0.5, middle.whole().centre(d), 1e-12);
    }
    assertEquals(0.5, middle.whole().centre(0), 1e-12, "the default bowl stays in the middle");
    // the fitted centre explains the observations better than the middle does
    assertTrue(
        squaredError(centred, x, y) < squaredError(middle, x, y),
        squaredError(centred, x, y) + " against " + squaredError(middle, x, y));
  }

  @Test
  void aCentredBowlWithTooFewObservationsForItsSlopesKeepsTheMiddle() {
    double[][] x = Arrays.copyOf(offCentrePoints(), 5);
    double[] y = offCentreTargets(x);
    double[] relevance = new double[DIMS];
    Arrays.fill(relevance, 1);

    BowlMeanFitter.Bowl centred = BowlMeanFitter.Bowl.fit(x, y, relevance, true);

    for (int d = 0; d < DIMS; d++) {
      assertEquals(0.5, centred.whole().centre(d), 1e-12, "input " + d);
    }
  }

  private static double squaredError(BowlMeanFitter.Bowl bowl, double[][] x, double[] y) {
    double mean = Arrays.stream(y).average().orElse(0);
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      double e = y[i] - mean - bowl.mean(x[i]);
      s += e * e;
    }
    return s;
  }
}
