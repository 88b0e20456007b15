package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetTransformTest {

  @Test
  void inverseUndoesForwardOnBothSidesOfTheMedian() {
    List<Double> tps = List.of(120.0, 950.0, 1000.0, 1010.0, 1100.0, 30.0);
    TargetTransform t = TargetTransform.fit(tps, Direction.MAXIMIZE);
    for (double v : new double[] {5, 30, 120, 500, 1000, 1100, 4000}) {
      assertEquals(v, t.inverse(t.forward(v)), 1e-9 * v);
    }
    List<Double> signed = List.of(-150.0, -120.0, -20.0, 80.0, 300.0);
    TargetTransform s = TargetTransform.fit(signed, Direction.MINIMIZE);
    for (double v : new double[] {-200, -150, 0, 300, 900}) {
      assertEquals(v, s.inverse(s.forward(v)), 1e-9 * Math.max(1, Math.abs(v)));
    }
  }

  @Test
  void largerIsBetterWhateverTheDirection() {
    List<Double> latency = List.of(2.0, 3.0, 5.0, 40.0);
    TargetTransform t = TargetTransform.fit(latency, Direction.MINIMIZE);
    assertTrue(t.forward(2.0) > t.forward(3.0));
    assertTrue(t.forward(5.0) > t.forward(40.0));
  }

  @Test
  void aCollapsedRunIsPulledInWhileTheGoodHalfKeepsItsSpacing() {
    // one configuration that collapses throughput among runs within a few percent
    List<Double> tps = List.of(1000.0, 1020.0, 1040.0, 1060.0, 1080.0, 10.0);
    TargetTransform t = TargetTransform.fit(tps, Direction.MAXIMIZE);
    double[] y = tps.stream().mapToDouble(t::forward).toArray();
    double goodStep = y[1] - y[0];
    double collapse = y[0] - y[5];
    // the logarithm and standardizing alone keep the ratio of the two gaps; compressed, the
    // collapse stays the worst but counts for less than half as many good steps
    double linearRatio = (Math.log(1000) - Math.log(10)) / (Math.log(1020) - Math.log(1000));
    assertTrue(collapse > 0);
    assertTrue(
        collapse / goodStep < 0.6 * linearRatio,
        "collapse " + collapse / goodStep + " good steps, " + linearRatio + " uncompressed");
    // above the median (1020) the spacing is the logarithm's, untouched; just below, nearly so
    double scale = (y[2] - y[1]) / (Math.log(1040) - Math.log(1020));
    for (int i = 3; i < 5; i++) {
      double logStep = Math.log(tps.get(i)) - Math.log(tps.get(i - 1));
      assertEquals(scale * logStep, y[i] - y[i - 1], 1e-9);
    }
    assertEquals(scale * (Math.log(1020) - Math.log(1000)), goodStep, 0.01 * goodStep);
  }

  @Test
  void modelTargetsHaveMeanZeroAndSpreadOne() {
    List<Double> values = List.of(3.0, 7.0, 8.0, 9.0, 11.0, 12.0, 20.0);
    TargetTransform t = TargetTransform.fit(values, Direction.MAXIMIZE);
    double[] y = values.stream().mapToDouble(t::forward).toArray();
    double mean = Arrays.stream(y).average().orElseThrow();
    double ss = Arrays.stream(y).map(v -> (v - mean) * (v - mean)).sum();
    assertEquals(0, mean, 1e-9);
    assertEquals(1, Math.sqrt(ss / (y.length - 1)), 1e-9);
  }

  @Test
  void identicalValuesDoNotDivideByZero() {
    TargetTransform t = TargetTransform.fit(List.of(5.0, 5.0, 5.0), Direction.MAXIMIZE);
    assertEquals(0, t.forward(5.0), 1e-12);
    assertEquals(5.0, t.inverse(t.forward(5.0)), 1e-12);
  }
}
