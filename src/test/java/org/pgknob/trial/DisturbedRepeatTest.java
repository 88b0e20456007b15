package org.pgknob.trial;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DisturbedRepeatTest {
  @Test
  void neverAndAZeroWaitKeepEveryDisturbedWindow() {
    assertFalse(DisturbedRepeat.never().waitsNow());
    assertFalse(DisturbedRepeat.waitingAtMost(Duration.ZERO).waitsNow());
  }

  @Test
  void twoFruitlessWaitsInARowStopTheWaitsUntilAWindowRunsUndisturbed() {
    DisturbedRepeat repeat = DisturbedRepeat.waitingAtMost(Duration.ofMinutes(2));
    assertTrue(repeat.waitsNow());
    repeat.waited(false);
    assertTrue(repeat.waitsNow(), "one wait in vain: the next disturbed window still waits");
    repeat.waited(false);
    assertFalse(repeat.waitsNow(), "two in a row: the host is busy, waiting only costs time");
    repeat.undisturbedWindow();
    assertTrue(repeat.waitsNow(), "the host went quiet on its own: waits begin again");
  }

  @Test
  void aWaitThatFoundQuietClearsTheFruitlessOnes() {
    DisturbedRepeat repeat = DisturbedRepeat.waitingAtMost(Duration.ofMinutes(2));
    repeat.waited(false);
    repeat.waited(true);
    repeat.waited(false);
    assertTrue(repeat.waitsNow());
  }

  @Test
  void aNegativeWaitIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> DisturbedRepeat.waitingAtMost(Duration.ofSeconds(-1)));
  }
}
