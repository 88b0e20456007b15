package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  /** Seven configurations run five times each at levels 1000..7000, 7% log-normal noise. */
  private static List<double[]> sevenConfigurations(Random random, double sd) {
    List<double[]> groups = new ArrayList<>();
    for (int g = 0; g < 7; g++) {
      double[] runs = new double[5];
      for (int i = 0; i < runs.length; i++) {
        runs[i] = 1000 * (g + 1) * Math.exp(sd * random.nextGaussian());
      }
      groups.add(runs);
    }
    return groups;
  }

  @Test
  void oneRunThatOtherProcessesHalvedLeavesTheEstimateWithinAFactorOf1point4() {
    Random random = new Random(11);
    double sd = 0.07;
    int sessions = 1000;
    int withinFactor = 0;
    int leftOut = 0;
    int classicalBeyond = 0;
    for (int s = 0; s < sessions; s++) {
      List<double[]> groups = sevenConfigurations(random, sd);
      groups.get(random.nextInt(7))[random.nextInt(5)] *= 0.5;
      RunNoise n = PooledNoise.of(groups);
      withinFactor += n.logSd() < 1.4 * sd && n.logSd() > sd / 1.4 ? 1 : 0;
      leftOut += n.runs() == 34 && n.degreesOfFreedom() == 27 ? 1 : 0;
      // what the sum of all squared deviations says: about twice the noise
      double squares = 0;
      for (double[] g : groups) {
        double[] l = Stats.logs(g);
        double m = Stats.mean(l);
        for (double v : l) {
          squares += (v - m) * (v - m);
        }
      }
      classicalBeyond += Math.sqrt(squares / 28) > 1.5 * sd ? 1 : 0;
    }
    // sampling alone (27 degrees of freedom) leaves about 2% of clean estimates beyond 1.4x
    assertTrue(withinFactor >= 0.97 * sessions, withinFactor + " of " + sessions);
    assertTrue(leftOut >= 0.97 * sessions, leftOut + " of " + sessions + " left it out");
    assertTrue(classicalBeyond >= 0.95 * sessions, classicalBeyond + " of " + sessions);
  }

  @Test
  void withoutAnOutlierTheEstimateIsThePooledOneAndUnbiased() {
    Random random = new Random(12);
    double sd = 0.07;
    int sessions = 2000;
    double sumOfVariances = 0;
    int leftOut = 0;
    for (int s = 0; s < sessions; s++) {
      RunNoise n = PooledNoise.of(sevenConfigurations(random, sd));
      sumOfVariances += n.logSd() * n.logSd();
      leftOut += n.runs() < 35 ? 1 : 0;
    }
    // the mean of 2000 variances of 28 degrees of freedom has a relative error of 0.6%
    assertEquals(sd * sd, sumOfVariances / sessions, 0.025 * sd * sd);
    // an ordinary run is left out in about 1% of sessions (the test's stated error rate)
    assertTrue(leftOut <= 0.02 * sessions, leftOut + " of " + sessions);
  }

  @Test
  void aConfigurationRunTwiceCannotSayWhichRunIsTheOddOneSoNeitherIsLeftOut() {
    Random random = new Random(13);
    List<double[]> groups = sevenConfigurations(random, 0.07);
    groups.add(new double[] {1000, 500});
    RunNoise n = PooledNoise.of(groups);
    assertEquals(37, n.runs());
    assertEquals(29, n.degreesOfFreedom());
  }

  @Test
  void threeRunsAloneAreNeverThinned() {
    RunNoise n = PooledNoise.of(List.of(new double[] {1000, 1010, 500}));
    assertEquals(3, n.runs());
    assertEquals(2, n.degreesOfFreedom());
  }

  @Test
  void outliersThatRecurAreTheNoiseAndAllCount() {
    Random random = new Random(14);
    List<double[]> groups = sevenConfigurations(random, 0.07);
    groups.get(1)[2] *= 0.5;
    groups.get(4)[0] *= 0.5;
    RunNoise n = PooledNoise.of(groups);
    assertEquals(35, n.runs());
    assertTrue(n.logSd() > 1.5 * 0.07, "both halved runs widen it: " + n.logSd());
  }
}
