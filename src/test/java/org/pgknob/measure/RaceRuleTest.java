package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RaceRuleTest {
  private static final RaceRule RULE = new RaceRule(0.05, 5);

  /** One window: 7% log-normal noise, and with probability {@code dropRate} a 30% drop. */
  static double run(Random random, double level, double dropRate) {
    double v = level * Math.exp(0.07 * random.nextGaussian());
    return random.nextDouble() < dropRate ? 0.7 * v : v;
  }

  /** The session's pooled noise as it would estimate it: 3 repeated configurations. */
  static RunNoise pooled(Random random, double dropRate) {
    List<double[]> groups = new ArrayList<>();
    for (int g = 0; g < 3; g++) {
      double[] runs = new double[4];
      for (int i = 0; i < runs.length; i++) {
        runs[i] = run(random, 1000 + 500 * g, dropRate);
      }
      groups.add(runs);
    }
    return PooledNoise.of(groups);
  }

  /** Runs one race to its end; returns the decision and the pairs it took. */
  static RaceRule.Decision race(
      Random random, double challengerRatio, double dropRate, boolean higherIsBetter) {
    RunNoise noise = pooled(random, dropRate);
    List<Double> inc = new ArrayList<>();
    List<Double> ch = new ArrayList<>();
    while (true) {
      double level = 2000 * (1 + 0.1 * random.nextGaussian()); // the pair's shared drift
      double i = run(random, level, dropRate);
      double c = run(random, level * challengerRatio, dropRate);
      inc.add(higherIsBetter ? i : 1 / i);
      ch.add(higherIsBetter ? c : 1 / c);
      RaceRule.Decision d =
          RULE.decide(
              inc.stream().mapToDouble(Double::doubleValue).toArray(),
              ch.stream().mapToDouble(Double::doubleValue).toArray(),
              higherIsBetter,
              noise);
      if (d != RaceRule.Decision.CONTINUE) {
        assertTrue(inc.size() <= RULE.maxPairs());
        return d;
      }
    }
  }

  @Test
  void anEqualChallengerIsRejectedInAtLeast95PercentOf200Races() {
    Random random = new Random(1);
    int rejected = 0;
    for (int r = 0; r < 200; r++) {
      rejected += race(random, 1.0, 0, true) == RaceRule.Decision.INCUMBENT_STAYS ? 1 : 0;
    }
    assertTrue(rejected >= 190, rejected + " of 200 rejected");
  }

  @Test
  void anEqualChallengerIsRejectedAlsoUnderOccasional30PercentDrops() {
    Random random = new Random(2);
    int rejected = 0;
    for (int r = 0; r < 200; r++) {
      rejected += race(random, 1.0, 0.1, true) == RaceRule.Decision.INCUMBENT_STAYS ? 1 : 0;
    }
    assertTrue(rejected >= 190, rejected + " of 200 rejected");
  }

  @Test
  void aBetterChallengerWinsAsOftenAsFivePairsAllow() {
    Random random = new Random(3);
    int won15 = 0;
    int won25 = 0;
    for (int r = 0; r < 200; r++) {
      won15 += race(random, 1.15, 0, true) == RaceRule.Decision.CHALLENGER_WINS ? 1 : 0;
      won25 += race(random, 1.25, 0, true) == RaceRule.Decision.CHALLENGER_WINS ? 1 : 0;
    }
    // 15% under 7% noise (a pair's log ratio varies by 0.1) is near what 5 pairs can show at a
    // 1% error per look; 25% is well beyond it
    assertTrue(won15 >= 130, won15 + " of 200 won at 15%");
    assertTrue(won25 >= 190, won25 + " of 200 won at 25%");
  }

  @Test
  void forLatencyLowerWins() {
    Random random = new Random(4);
    int won = 0;
    for (int r = 0; r < 100; r++) {
      // race() hands the rule 1/value: a challenger with 1.25x the throughput has lower latency
      won += race(random, 1.25, 0, false) == RaceRule.Decision.CHALLENGER_WINS ? 1 : 0;
    }
    assertTrue(won >= 95, won + " of 100 won");
  }

  @Test
  void aChallengerBehindAfterTwoPairsIsDroppedAndAnUndecidedRaceEndsAtTheCap() {
    RunNoise noise = new RunNoise(0.07, 10, 13, 3);
    assertEquals(
        RaceRule.Decision.CONTINUE,
        RULE.decide(new double[] {1000}, new double[] {990}, true, noise));
    assertEquals(
        RaceRule.Decision.INCUMBENT_STAYS,
        RULE.decide(new double[] {1000, 1000}, new double[] {990, 1005}, true, noise));
    assertEquals(
        RaceRule.Decision.CONTINUE,
        RULE.decide(new double[] {1000}, new double[] {1010}, true, noise));
    double[] inc = {1000, 1000, 1000, 1000, 1000};
    double[] ch = {1010, 1010, 1010, 1010, 1010};
    assertEquals(RaceRule.Decision.INCUMBENT_STAYS, RULE.decide(inc, ch, true, noise));
    assertEquals(
        RaceRule.Decision.CHALLENGER_WINS,
        RULE.decide(new double[] {1000, 1000}, new double[] {1300, 1310}, true, noise));
  }
}
