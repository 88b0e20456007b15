package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pgknob.optimize.KnobSensitivity.Verdict;

class KnobSensitivityTest {
  private static KnobSensitivity sweep(Verdict v, double range, double multiple, double change) {
    return new KnobSensitivity("shared_buffers", v, range, multiple, 2048L, change, "");
  }

  @Test
  void aBestValueLeadingTheDefaultsByMoreThanTheNoiseCountsEvenWithinNoise() {
    // a noise-bench sweep: +24.5% at 2048MB, 2.7 x a 9% noise: within noise, leads by 2.7 sd
    assertTrue(sweep(Verdict.WITHIN_NOISE, 0.245, 2.7, 0.245).bestLeadsBeyondNoise());
    // latency: 12% lower at the best value under a 5% noise
    assertTrue(sweep(Verdict.WITHIN_NOISE, 0.15, 3.0 * 0.15 / 0.15, -0.12).bestLeadsBeyondNoise());
    assertTrue(sweep(Verdict.EFFECT, 0.30, 6, 0.30).bestLeadsBeyondNoise());
  }

  @Test
  void aBestValueWithinOneNoiseSdOfTheDefaultsOrAtTheDefaultIsACoinToss() {
    // range 20% (2 x a 10% noise) from one low value, the best only 5% above the defaults
    assertFalse(sweep(Verdict.WITHIN_NOISE, 0.20, 2, 0.05).bestLeadsBeyondNoise());
    assertFalse(sweep(Verdict.EFFECT, 0.30, 6, 0).bestLeadsBeyondNoise(), "the default is best");
    assertFalse(sweep(Verdict.NO_EFFECT, 0.05, 0.5, 0.05).bestLeadsBeyondNoise());
    assertFalse(
        new KnobSensitivity("jit", Verdict.NOT_MEASURED, 0, Double.NaN, null, 0, "")
            .bestLeadsBeyondNoise());
  }
}
