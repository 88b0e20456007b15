package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

/** The choice between the log scale and the values' own scale, by the models' likelihoods. */
class TargetScaleTest {
  private static final int POINTS = 30;

  /** Distance of a point from (0.3, 0.6, 0.5), squared: 0 at the optimum, about 0.6 at worst. */
  private static double bowl(double[] x) {
    return Math.pow(x[0] - 0.3, 2) + Math.pow(x[1] - 0.6, 2) + Math.pow(x[2] - 0.5, 2);
  }

  private static double[][] points(Random random) {
    double[][] x = new double[POINTS][3];
    for (double[] row : x) {
      for (int j = 0; j < row.length; j++) {
        row[j] = random.nextDouble();
      }
    }
    return x;
  }

  private static TargetTransform chosen(double[][] x, List<Double> values, Direction direction) {
    return TargetScale.choose(values, direction, x, new double[x.length], List.of(), 1);
  }

  @Test
  void throughputWhoseNoiseIsAShareOfItStaysOnTheLogScale() {
    Random random = new Random(5);
    double[][] x = points(random);
    List<Double> tps = new ArrayList<>();
    for (double[] row : x) {
      // 3000 TPS at the optimum, a tenth of it at the far corner; 4% run-to-run noise
      tps.add(3000 * Math.exp(-4 * bowl(row)) * Math.exp(0.04 * random.nextGaussian()));
    }
    assertTrue(chosen(x, tps, Direction.MAXIMIZE).log());
  }

  @Test
  void valuesNearZeroWithNoiseOfAFixedSizeKeepTheirOwnScale() {
    Random random = new Random(5);
    double[][] x = points(random);
    List<Double> values = new ArrayList<>();
    for (double[] row : x) {
      values.add(0.2 + 10 * bowl(row) + 0.08 * random.nextGaussian());
    }
    assertTrue(values.stream().allMatch(v -> v > 0), "the log must be on offer: " + values);
    assertFalse(chosen(x, values, Direction.MINIMIZE).log());
  }

  @Test
  void valuesNotAllPositiveAreNeverLogged() {
    Random random = new Random(5);
    double[][] x = points(random);
    List<Double> values = new ArrayList<>();
    for (double[] row : x) {
      values.add(-1 + 10 * bowl(row));
    }
    assertFalse(chosen(x, values, Direction.MINIMIZE).log());
  }

  @Test
  void aPredictedChangeIsALogRatioOnTheValuesOwnScaleToo() {
    SearchSpace space =
        new SearchSpace(
            "three",
            List.of(
                TestSpaces.real("a", 0, 1, 0.5),
                TestSpaces.real("b", 0, 1, 0.5),
                TestSpaces.real("c", 0, 1, 0.5)));
    Bayes bayes =
        Optimizers.bayesWithConstantMean(
            OptimizerSpec.of(space, Objective.minimize("value")).withSeed(3), SurrogateKind.GP);
    Random random = new Random(5);
    for (double[] row : points(random)) {
      double value = 0.2 + 10 * bowl(row) + 0.08 * random.nextGaussian();
      bayes.observe(
          Configuration.of(Map.of("a", row[0], "b", row[1], "c", row[2])),
          Outcome.ok("value", value));
    }
    Configuration corner = Configuration.of(Map.of("a", 1.0, "b", 0.0, "c", 1.0));
    Configuration best = Configuration.of(Map.of("a", 0.3, "b", 0.6, "c", 0.5));
    // from about 0.2 + 10 x 0.86 = 8.8 down to about 0.2: log(8.8 / 0.2) = 3.8, a gain
    PredictedChange change = bayes.change(corner, best).orElseThrow();
    assertTrue(change.logGain() > 2.5 && change.logGain() < 5.5, "log ratio " + change.logGain());
    assertTrue(change.logSd() > 0, "sd " + change.logSd());
  }

  @Test
  void onTheValuesOwnScaleTheOrientedLogIsTheLogOfTheValue() {
    List<Double> values = List.of(0.3, 1.0, 2.5, 4.0, 8.0);
    TargetTransform maximize = TargetTransform.fit(values, Direction.MAXIMIZE, false);
    TargetTransform minimize = TargetTransform.fit(values, Direction.MINIMIZE, false);
    for (double v : values) {
      assertEquals(Math.log(v), maximize.orientedLog(maximize.forward(v)), 1e-9);
      assertEquals(-Math.log(v), minimize.orientedLog(minimize.forward(v)), 1e-9);
    }
    assertTrue(Double.isNaN(maximize.orientedLog(maximize.forward(-1))));
  }

  @Test
  void theLogSlopeMatchesTheTransformsChangeOverASmallStep() {
    List<Double> tps = List.of(900.0, 1000.0, 1100.0, 1500.0, 200.0);
    TargetTransform t = TargetTransform.fit(tps, Direction.MAXIMIZE);
    for (double v : new double[] {300, 1000, 1400}) {
      double slope = (t.forward(v * 1.001) - t.forward(v)) / (v * 0.001);
      assertTrue(Math.abs(t.logSlope(v) - Math.log(slope)) < 1e-3, v + ": " + t.logSlope(v));
    }
  }
}
