package org.pgknob.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.pgknob.server.ProcessSample;
import org.pgknob.server.ProcessSampler;

/** The wait for a quiet host, on samples fed as the agent feeds them, one every 10 ms. */
class QuietWaitTest {
  private static final Duration INTERVAL = Duration.ofMillis(10);

  @Test
  void endsAfterThreeQuietSamplesInARowAndNotAtAOneSampleDip() throws Exception {
    // 2 cores, so the line is 0.25: busy, a one-sample dip, busy, then quiet for good
    double[] foreign = {1.0, 1.0, 0.1, 1.0, 1.0, 0.1, 0.2, 0.1, 0.1};
    AtomicInteger taken = new AtomicInteger();
    try (ProcessSampler sampler = fed(i -> i < foreign.length ? foreign[i] : 0.05, taken)) {
      QuietWait.Outcome waited = QuietWait.on(sampler, Duration.ofSeconds(30));

      assertTrue(waited.quiet());
      // the third quiet sample after the last busy one is the 8th; the sampler may take one more
      // before it is closed
      int n = taken.get();
      assertTrue(n == 8 || n == 9, "ended after sample " + n);
      assertEquals(1.0, waited.busyCores());
    }
  }

  @Test
  void aHostBusyThroughoutEndsTheWaitAtItsLongestWithoutQuiet() throws Exception {
    AtomicInteger taken = new AtomicInteger();
    try (ProcessSampler sampler = fed(i -> i % 3 == 0 ? 0.1 : 0.9, taken)) {
      QuietWait.Outcome waited = QuietWait.on(sampler, Duration.ofMillis(300));

      assertFalse(waited.quiet());
      assertTrue(waited.waited().toMillis() >= 300, waited.waited().toString());
      assertEquals(0.9, waited.busyCores());
    }
  }

  @Test
  void theFirstReadingWithoutAHostFigureIsNotAQuietSample() throws Exception {
    // a local sampler's first reading has no CPU to compare with: 0 busy, 0 foreign
    AtomicInteger taken = new AtomicInteger();
    try (ProcessSampler sampler =
        new ProcessSampler(
            () -> {
              int i = taken.getAndIncrement();
              return Optional.of(sample(i, i == 0 ? 0 : 1.2, i == 0 ? 0 : (i < 4 ? 1.0 : 0.0)));
            },
            INTERVAL)) {
      QuietWait.Outcome waited = QuietWait.on(sampler, Duration.ofSeconds(30));

      assertTrue(waited.quiet());
      assertTrue(taken.get() >= 7, "samples 4, 5 and 6 are the quiet ones: " + taken.get());
    }
  }

  private static ProcessSampler fed(IntToDoubleFunction foreignAt, AtomicInteger taken) {
    return new ProcessSampler(
        () -> {
          int i = taken.getAndIncrement();
          return Optional.of(sample(i, 1.5, foreignAt.applyAsDouble(i)));
        },
        INTERVAL);
  }

  private static ProcessSample sample(int i, double hostBusyCores, double foreignCores) {
    return new ProcessSample(
        1_000_000L + i,
        5,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        2,
        hostBusyCores,
        0,
        foreignCores,
        0,
        -1,
        -1,
        Map.of());
  }
}
