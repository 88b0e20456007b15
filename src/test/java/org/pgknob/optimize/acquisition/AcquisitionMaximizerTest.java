package org.pgknob.optimize.acquisition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.TestSpaces;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

class AcquisitionMaximizerTest {
  private static final double[] ANCHOR = {0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3};

  private static SearchSpace eightReals() {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      knobs.add(TestSpaces.real("x" + i, 0, 1, 0.5));
    }
    return new SearchSpace("eight", knobs);
  }

  /** A narrow peak at the anchor with one knob moved far: x5 = 0.9. */
  private static double peakAtFarOneKnobMove(double[] x) {
    double s = 0;
    for (int d = 0; d < x.length; d++) {
      double target = d == 5 ? 0.9 : ANCHOR[d];
      s += (x[d] - target) * (x[d] - target);
    }
    return -s / 0.01;
  }

  @Test
  void oneKnobNeighboursReachAMoveFarFromTheAnchorThatLocalStepsMiss() {
    UnitCubeEncoder encoder = new UnitCubeEncoder(eightReals());
    // no Sobol candidates, no refinement: only the anchor's perturbations and neighbours compete
    var withNeighbours =
        new AcquisitionMaximizer(
            encoder, c -> true, new AcquisitionMaximizer.Settings(0, 100, 8, 0, 0));
    var withoutNeighbours =
        new AcquisitionMaximizer(
            encoder, c -> true, new AcquisitionMaximizer.Settings(0, 100, 0, 0, 0));
    double[] found =
        withNeighbours
            .maximize(
                AcquisitionMaximizerTest::peakAtFarOneKnobMove, List.of(ANCHOR), new Random(1))
            .orElseThrow()
            .point();
    assertEquals(0.9, found[5], 1.0 / 8, "x5 moved to the peak's stratum");
    for (int d = 0; d < found.length; d++) {
      if (d != 5) {
        assertEquals(ANCHOR[d], found[d], 1e-12, "x" + d + " left alone");
      }
    }
    double[] local =
        withoutNeighbours
            .maximize(
                AcquisitionMaximizerTest::peakAtFarOneKnobMove, List.of(ANCHOR), new Random(1))
            .orElseThrow()
            .point();
    assertTrue(local[5] < 0.75, "Gaussian steps stay near the anchor: x5 = " + local[5]);
  }

  private static double gentlePeak(double[] x) {
    return peakAtFarOneKnobMove(x) / 100;
  }

  @Test
  void scoringInTheOrderOfUpperBoundsFindsWhatFullScoringFindsWithFewerEvaluations() {
    UnitCubeEncoder encoder = new UnitCubeEncoder(eightReals());
    var maximizer =
        new AcquisitionMaximizer(
            encoder, c -> true, new AcquisitionMaximizer.Settings(600, 60, 4, 0, 0));
    AtomicInteger fullCalls = new AtomicInteger();
    Acquisition full =
        x -> {
          fullCalls.incrementAndGet();
          return gentlePeak(x);
        };
    AtomicInteger boundedCalls = new AtomicInteger();
    Acquisition bounded =
        new Acquisition() {
          @Override
          public double value(double[] x) {
            boundedCalls.incrementAndGet();
            return gentlePeak(x);
          }

          @Override
          public double upperBound(double[] x) {
            // valid, exact on some candidates and far above on others: the order of the bounds
            // is not the order of the values
            return gentlePeak(x) + 2 * Math.abs(x[5] - 0.9);
          }
        };
    for (int seed = 0; seed < 10; seed++) {
      var expected = maximizer.maximize(full, List.of(ANCHOR), new Random(seed)).orElseThrow();
      var got = maximizer.maximize(bounded, List.of(ANCHOR), new Random(seed)).orElseThrow();
      assertEquals(expected.configuration(), got.configuration(), "seed " + seed);
      assertEquals(expected.value(), got.value(), "seed " + seed);
    }
    assertTrue(
        boundedCalls.get() < fullCalls.get() / 2,
        boundedCalls.get() + " evaluations with bounds against " + fullCalls.get() + " without");
  }

  @Test
  void oneKnobNeighboursTryEveryValueOfACategory() {
    Knob mode = TestSpaces.enumKnob("mode", List.of("a", "b", "c"), "a");
    Knob level = TestSpaces.real("level", 0, 1, 0.5);
    UnitCubeEncoder encoder = new UnitCubeEncoder(new SearchSpace("cat", List.of(level, mode)));
    double[] anchor = encoder.encode(Configuration.of(java.util.Map.of("level", 0.5, "mode", "a")));
    var maximizer =
        new AcquisitionMaximizer(
            encoder, c -> true, new AcquisitionMaximizer.Settings(0, 0, 4, 0, 0));
    Configuration best =
        maximizer
            .maximize(
                x -> encoder.decode(x).get("mode").equals("c") ? 1 : 0,
                List.of(anchor),
                new Random(2))
            .orElseThrow()
            .configuration();
    assertEquals("c", best.get("mode"));
  }
}
