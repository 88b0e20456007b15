package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class InstabilityTest {
  private static final Instability RULE = new Instability(0.01);
  private static final RunNoise NOISE = new RunNoise(0.05, 20, 26, 6);

  @Test
  void runsWithinTheNoiseAreStableAndRankedByTheirGeometricMean() {
    double[] runs = {1000, 1050, 980};
    assertFalse(RULE.unstable(runs, NOISE));
    assertEquals(Math.cbrt(1000.0 * 1050 * 980), RULE.rankingValue(runs, true, NOISE), 1e-9);
  }

  @Test
  void runsThatDisagreeWidelyAreUnstableAndRankedByTheirWorst() {
    double[] runs = {1000, 1600, 700};
    assertTrue(RULE.unstable(runs, NOISE));
    assertEquals(700, RULE.rankingValue(runs, true, NOISE), 0);
    assertEquals(1600, RULE.rankingValue(runs, false, NOISE), 0);
  }

  @Test
  void stableConfigurationsAreRarelyMarked() {
    Random random = new Random(9);
    int marked = 0;
    for (int i = 0; i < 1000; i++) {
      double[] runs = new double[3];
      for (int j = 0; j < 3; j++) {
        runs[j] = 1000 * Math.exp(0.05 * random.nextGaussian());
      }
      marked += RULE.unstable(runs, NOISE) ? 1 : 0;
    }
    assertTrue(marked <= 25, marked + " of 1000 marked at a 1% error rate");
  }

  @Test
  void withoutKnownNoiseNothingIsMarked() {
    assertFalse(RULE.unstable(new double[] {100, 900}, new RunNoise(0, 0, 0, 0)));
  }
}
