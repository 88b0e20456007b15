package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** A configuration's one run that a drop explains, on synthetic runs of known noise and drops. */
class LoneDropTest {
  @Test
  void underNoiseADropInTwoRunsIsLeftOutAndOrdinaryPairsKeepBoth() {
    Random random = new Random(11);
    int pairs = 20_000;
    int dropsLeftOut = 0;
    int ordinaryLeftOut = 0;
    for (int i = 0; i < pairs; i++) {
      double a = 1000 * Math.exp(0.07 * random.nextGaussian());
      double b = 1000 * Math.exp(0.07 * random.nextGaussian());
      ordinaryLeftOut += LoneDrop.of(new double[] {a, b}, true) >= 0 ? 1 : 0;
      dropsLeftOut += LoneDrop.of(new double[] {a, 0.7 * b}, true) == 1 ? 1 : 0;
    }
    // a 30% drop is ln 0.7 = -0.36 against a threshold of 0.2 and a difference's sd of 0.099
    assertTrue(dropsLeftOut > 0.9 * pairs, dropsLeftOut + " drops of " + pairs + " left out");
    // two noisy runs 0.2 apart: 2 sds of their difference, one side (the lower run)
    assertTrue(ordinaryLeftOut < 0.05 * pairs, ordinaryLeftOut + " ordinary pairs lost a run");
  }

  @Test
  void onlyTheWorstRunIsLeftOutSoTwoDropsStayVisible() {
    double[] runs = {1000, 700, 690, 1010};
    assertEquals(2, LoneDrop.of(runs, true), "the lowest, below the others' median (850)");
    // the second drop stays among the runs, where the instability test sees it
    assertArrayEquals(new double[] {1000, 700, 1010}, LoneDrop.without(runs, true));
  }

  @Test
  void forLatencyTheDropIsTheHighestRun() {
    assertEquals(1, LoneDrop.of(new double[] {4.0, 5.7, 4.1}, false));
    assertEquals(-1, LoneDrop.of(new double[] {4.0, 3.0, 4.1}, false), "a fast run is no drop");
  }

  @Test
  void aSingleRunOrRunsWithinTheThresholdKeepEverything() {
    assertEquals(-1, LoneDrop.of(new double[] {700}, true));
    assertEquals(-1, LoneDrop.of(new double[] {1000, 850}, true), "16% below: within 18%");
    assertEquals(1, LoneDrop.of(new double[] {1000, 800}, true), "22% below");
  }

  @Test
  void aRunIsBeyondOthersOnlyWhenItLiesMoreThanTheThresholdOnTheWorseSideOfTheirMedian() {
    double[] others = {1000, 1100, 900};
    assertTrue(LoneDrop.beyond(800, others, true), "20% below the median 1000");
    assertFalse(LoneDrop.beyond(850, others, true), "15% below: within 18%");
    assertFalse(LoneDrop.beyond(1300, others, true), "a fast run is no drop");
    assertTrue(LoneDrop.beyond(1300, others, false), "for latency, high is the worse side");
    assertFalse(LoneDrop.beyond(500, new double[0], true), "nothing to compare with");
  }
}
