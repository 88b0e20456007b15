package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The window --duration auto chooses, from synthetic runs whose per-second values scatter by a
 * known amount around run levels that differ by a known amount: the noise is measured as a session
 * measures it (batch means per window, pooled over runs), then split and weighed.
 */
class WindowChoiceTest {
  private static final List<Integer> WINDOWS = List.of(15, 30, 60, 120);

  /**
   * Noise measured from {@code runs} synthetic 15-s windows: run levels with log sd {@code
   * betweenRuns}, seconds with relative sd {@code perSecond} and lag-1 autocorrelation 0.5.
   */
  private static NoiseComponents measured(
      int runs, double betweenRuns, double perSecond, long seed) {
    Random random = new Random(seed);
    double[] means = new double[runs];
    double squares = 0;
    for (int r = 0; r < runs; r++) {
      double level = 1000 * Math.exp(betweenRuns * random.nextGaussian());
      double[] seconds = new double[15];
      double e = random.nextGaussian();
      for (int i = 0; i < seconds.length; i++) {
        e = 0.5 * e + Math.sqrt(1 - 0.25) * random.nextGaussian();
        seconds[i] = level * (1 + perSecond * e);
      }
      WindowError w = BatchMeans.of(seconds);
      means[r] = w.mean();
      squares += w.relativeError() * w.relativeError();
    }
    RunNoise pooled = PooledNoise.of(List.of(means));
    return NoiseComponents.split(pooled, Math.sqrt(squares / runs), 15);
  }

  private static WindowChoice.Choice choose(
      NoiseComponents noise, java.util.function.IntUnaryOperator pairs) {
    return WindowChoice.choose(noise, WINDOWS, pairs, 4, DetectableEffect.DEFAULT, 0.1);
  }

  @Test
  void secondsThatScatterWidelyGetALongerWindowWhenThePairsStay() {
    int longer = 0;
    for (long seed = 1; seed <= 20; seed++) {
      NoiseComponents noise = measured(5, 0.005, 0.4, seed);
      longer += choose(noise, w -> 6).chosen().windowSeconds() > 15 ? 1 : 0;
    }
    assertTrue(longer >= 19, longer + " of 20 chose a longer window");
  }

  @Test
  void runsThatDifferMoreThanTheirSecondsKeepTheShortWindow() {
    int kept = 0;
    for (long seed = 1; seed <= 20; seed++) {
      NoiseComponents noise = measured(5, 0.08, 0.02, seed);
      // Longer windows leave fewer pairs in the same time: 15 s 8 pairs, 30 s 6, 60 s 4, 120 s 2.
      kept +=
          choose(noise, w -> Math.max(0, 10 - w / 15 - (w >= 60 ? w / 30 : 0)))
                      .chosen()
                      .windowSeconds()
                  == 15
              ? 1
              : 0;
    }
    assertTrue(kept >= 19, kept + " of 20 kept 15 s");
  }

  @Test
  void aWindowThatLeavesNoPairIsNeverChosen() {
    NoiseComponents noisy = new NoiseComponents(0.0, 0.3, 15);
    WindowChoice.Choice c = choose(noisy, w -> w <= 30 ? 3 : 0);
    assertEquals(30, c.chosen().windowSeconds());
    assertEquals(Double.POSITIVE_INFINITY, c.at(60).smallestGain(), 0);
  }

  @Test
  void aLongerWindowMustLowerTheGainByATenth() {
    // Within-window error small: 30 s lowers the gain by less than a tenth, so 15 s stays.
    NoiseComponents c = new NoiseComponents(0.05, 0.02, 15);
    WindowChoice.Choice choice = choose(c, w -> 4);
    assertEquals(15, choice.chosen().windowSeconds());
    assertTrue(choice.at(120).smallestGain() < choice.at(15).smallestGain());
    assertTrue(choice.at(120).smallestGain() > choice.at(15).smallestGain() / 1.1);
    List<Integer> order = new ArrayList<>();
    choice.options().forEach(o -> order.add(o.windowSeconds()));
    assertEquals(WINDOWS, order);
  }
}
