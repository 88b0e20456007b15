package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PooledNoiseTest {
  @Test
  void poolsRepeatsOfDifferentLevelsWithoutCountingTheLevelsAsNoise() {
    Random random = new Random(3);
    double sd = 0.07;
    List<double[]> groups = new ArrayList<>();
    double[] levels = {800, 1500, 2600, 4000};
    int[] sizes = {3, 8, 2, 5};
    for (int g = 0; g < levels.length; g++) {
      double[] runs = new double[sizes[g]];
      for (int i = 0; i < runs.length; i++) {
        runs[i] = levels[g] * Math.exp(sd * random.nextGaussian());
      }
      groups.add(runs);
    }
    groups.add(new double[] {1234}); // a single run says nothing about noise
    RunNoise n = PooledNoise.of(groups);
    assertEquals(18 - 4, n.degreesOfFreedom());
    assertEquals(18, n.runs());
    assertEquals(4, n.configurations());
    assertEquals(sd, n.logSd(), 0.025);
  }

  @Test
  void averagedOverManySessionsThePooledVarianceIsUnbiased() {
    Random random = new Random(5);
    double sd = 0.1;
    double sum = 0;
    int reps = 2000;
    for (int r = 0; r < reps; r++) {
      List<double[]> groups = new ArrayList<>();
      for (int g = 0; g < 3; g++) {
        double[] runs = new double[2 + g];
        for (int i = 0; i < runs.length; i++) {
          runs[i] = 1000 * (g + 1) * Math.exp(sd * random.nextGaussian());
        }
        groups.add(runs);
      }
      sum += Math.pow(PooledNoise.of(groups).logSd(), 2);
    }
    assertEquals(sd * sd, sum / reps, 0.05 * sd * sd);
  }

  @Test
  void exactValuesOfASmallCase() {
    RunNoise n = PooledNoise.of(List.of(new double[] {100, 100 * Math.E}, new double[] {50}));
    // logs differ by 1: sample variance 0.5 with 1 degree of freedom
    assertEquals(Math.sqrt(0.5), n.logSd(), 1e-12);
    assertEquals(1, n.degreesOfFreedom());
    assertEquals(2, n.runs());
    assertEquals(Math.sqrt(Math.expm1(0.5)), n.cv(), 1e-12);
  }

  @Test
  void noRepeatsNoEstimate() {
    RunNoise n = PooledNoise.of(List.of(new double[] {100}, new double[] {200}));
    assertFalse(n.known());
    assertEquals(0, n.runs());
  }
}
