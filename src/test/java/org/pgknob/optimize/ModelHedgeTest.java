package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ModelHedgeTest {
  private static final double[] GOOD = {0.2};
  private static final double[] POOR = {0.8};

  /** The posterior mean the rewards read: 1 at the good point, 0 elsewhere. */
  private static double mean(double[] x) {
    return x[0] == GOOD[0] ? 1 : 0;
  }

  private static int[] draws(ModelHedge hedge, int count, long seed) {
    Random random = new Random(seed);
    int[] counts = new int[2];
    for (int i = 0; i < count; i++) {
      counts[hedge.choose(random)]++;
    }
    return counts;
  }

  @Test
  void beforeAnyGainEachModelIsChosenAboutHalfTheTime() {
    int[] counts = draws(new ModelHedge(2, ModelHedge.ETA), 2000, 1);
    // binomial(2000, 0.5): sd 22, so 900..1100 is beyond 4.5 sd
    assertTrue(counts[0] > 900 && counts[0] < 1100, counts[0] + " of 2000");
  }

  @Test
  void theModelWhoseNominationsTheDataRateHigherIsChosenMostOfTheTime() {
    ModelHedge hedge = new ModelHedge(2, ModelHedge.ETA);
    for (int round = 0; round < 5; round++) {
      hedge.reward(ModelHedgeTest::mean);
      hedge.nominate(new double[][] {POOR, GOOD});
    }
    hedge.reward(ModelHedgeTest::mean);
    // five rounds of a gain of 1 against 0: exp(5) = 148 to 1, so about 993 in 1000
    assertArrayEquals(new double[] {0, 5}, hedge.gains(), 1e-12);
    int[] counts = draws(hedge, 1000, 2);
    assertTrue(counts[1] > 970, counts[1] + " of 1000");
  }

  @Test
  void nothingIsCreditedBeforeTheFirstNominationNorToAModelThatNominatedNothing() {
    ModelHedge hedge = new ModelHedge(2, ModelHedge.ETA);
    hedge.reward(x -> 10);
    assertArrayEquals(new double[] {0, 0}, hedge.gains(), 1e-12);
    hedge.nominate(new double[][] {GOOD, null});
    hedge.reward(x -> 3);
    assertArrayEquals(new double[] {3, 0}, hedge.gains(), 1e-12);
  }

  @Test
  void theSameSeedDrawsTheSameModels() {
    ModelHedge a = new ModelHedge(2, ModelHedge.ETA);
    ModelHedge b = new ModelHedge(2, ModelHedge.ETA);
    for (ModelHedge h : new ModelHedge[] {a, b}) {
      h.nominate(new double[][] {GOOD, POOR});
      h.reward(x -> x[0]);
    }
    assertArrayEquals(draws(a, 50, 9), draws(b, 50, 9));
    assertEquals(50, a.chosen()[0] + a.chosen()[1]);
  }

  @Test
  void largeGainsDoNotOverflowTheWeights() {
    ModelHedge hedge = new ModelHedge(2, ModelHedge.ETA);
    hedge.nominate(new double[][] {GOOD, POOR});
    hedge.reward(x -> x[0] == GOOD[0] ? 5000 : 4000);
    int[] counts = draws(hedge, 100, 3);
    assertEquals(100, counts[0]);
  }

  @Test
  void aHedgeNeedsTwoModelsAndOneNominationEach() {
    assertThrows(IllegalArgumentException.class, () -> new ModelHedge(1, 1));
    assertThrows(IllegalArgumentException.class, () -> new ModelHedge(2, Double.NaN));
    ModelHedge hedge = new ModelHedge(2, 1);
    assertThrows(IllegalArgumentException.class, () -> hedge.nominate(new double[][] {GOOD}));
  }
}
