package org.pgknob.optimize.acquisition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.TestSpaces;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/** TuRBO's trust region: how it grows and shrinks, and that the search stays inside it. */
class TrustRegionTest {
  /** Values of a search whose first 5 are the design (best 5.0), then {@code tail}. */
  private static double[] afterDesign(double... tail) {
    double[] out = new double[5 + tail.length];
    double[] design = {1, 5, 2, 3, 4};
    System.arraycopy(design, 0, out, 0, 5);
    System.arraycopy(tail, 0, out, 5, tail.length);
    return out;
  }

  @Test
  void theRegionHalvesAfterAsManyFailuresInARowAsTheToleranceAndNotBefore() {
    assertEquals(0.8, TrustRegion.replay(afterDesign(1, 2, 3), 5, 4).length(), 1e-12);
    assertEquals(0.4, TrustRegion.replay(afterDesign(1, 2, 3, 4), 5, 4).length(), 1e-12);
    assertEquals(0.2, TrustRegion.replay(afterDesign(1, 1, 1, 1, 1, 1, 1, 1), 5, 4).length());
  }

  @Test
  void aSuccessResetsTheFailuresAndThreeSuccessesDoubleTheRegion() {
    // three failures, a success (6 beats 5), three failures: never four in a row
    assertEquals(0.8, TrustRegion.replay(afterDesign(1, 1, 1, 6, 1, 1, 1), 5, 4).length());
    assertEquals(1.6, TrustRegion.replay(afterDesign(6, 7, 8), 5, 4).length(), 1e-12);
    // never beyond the largest length
    assertEquals(1.6, TrustRegion.replay(afterDesign(6, 7, 8, 9, 10, 11), 5, 4).length());
  }

  @Test
  void aCollapsedRegionRestartsAtItsInitialLength() {
    double[] failures = new double[8 * 2];
    // 0.8 halved 8 times is 0.003, under the smallest length 0.0039: reset to 0.8
    TrustRegion region = TrustRegion.replay(afterDesign(failures), 5, 2);
    assertEquals(0.8, region.length(), 1e-12);
    assertEquals(1, region.restarts());
  }

  @Test
  void theDesignSetsTheValueToBeatWithoutMovingTheRegion() {
    assertEquals(TrustRegion.initial(), TrustRegion.replay(new double[] {1, 2, 3, 4, 5}, 5, 1));
  }

  @Test
  void theBoxIsInsideTheCubeContainsTheCenterAndItsSidesFollowTheLengthScales() {
    TrustRegion region = new TrustRegion(0.4, 0, 0, 0);
    double[] center = {0.05, 0.5, 0.9, 0.5};
    // length scales 0.1 and 1 and 10 (geometric mean 1); the last dimension is not boxed
    TrustRegion.Box box = region.box(center, new double[] {0.1, 1, 10, 0});
    assertTrue(box.contains(center, 0));
    for (int d = 0; d < center.length; d++) {
      assertTrue(box.lower()[d] >= 0 && box.upper()[d] <= 1, "dimension " + d);
    }
    assertEquals(0.03, box.lower()[0], 1e-12, "0.05 - 0.4 x 0.1 / 2");
    assertEquals(0.07, box.upper()[0], 1e-12);
    assertEquals(0.3, box.lower()[1], 1e-12, "0.5 - 0.4 x 1 / 2");
    assertEquals(0.7, box.upper()[1], 1e-12);
    assertEquals(0, box.lower()[2], "a long length scale spans the cube");
    assertEquals(1, box.upper()[2]);
    assertEquals(0, box.lower()[3], "an unboxed dimension spans the cube");
    assertEquals(1, box.upper()[3]);
  }

  private static SearchSpace twelveReals() {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      knobs.add(TestSpaces.real("x" + i, 0, 1, 0.5));
    }
    return new SearchSpace("twelve", knobs);
  }

  /**
   * The acquisition rises towards x0 = 1, outside the box: the search's winner, refined by BOBYQA
   * included, is still inside the box (up to the decoder's rounding), at its edge.
   */
  @Test
  void theAcquisitionSearchStaysInsideTheBoxEvenWhenTheBestLiesOutside() {
    UnitCubeEncoder encoder = new UnitCubeEncoder(twelveReals());
    double[] center = new double[12];
    Arrays.fill(center, 0.3);
    double[] scales = new double[12];
    Arrays.fill(scales, 1);
    TrustRegion.Box box = new TrustRegion(0.2, 0, 0, 0).box(center, scales);
    var maximizer =
        new AcquisitionMaximizer(encoder, c -> true, AcquisitionMaximizer.Settings.defaults());
    Acquisition towardsOne = x -> Arrays.stream(x).sum();
    double[] found =
        maximizer
            .maximize(towardsOne, List.of(center), new Random(3), null, box)
            .orElseThrow()
            .point();
    assertTrue(box.contains(found, 1e-9), Arrays.toString(found));
    assertEquals(0.4, found[0], 0.01, "at the box's upper edge");
  }
}
