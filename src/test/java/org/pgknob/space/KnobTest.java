package org.pgknob.space;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KnobTest {
  private static Knob real(double min, double max) {
    return new Knob("x", KnobType.REAL, min, max, Scale.LOG, "", null, null, null, min, "");
  }

  @Test
  void realValuesAreRoundedToSixSignificantDigitsAsDecimalRoundingDoes() {
    Knob knob = real(1e-30, 1e30);
    Random r = new Random(7);
    for (int i = 0; i < 100_000; i++) {
      double v = Math.pow(10, -30 + 60 * r.nextDouble());
      double expected = new BigDecimal(v).round(new MathContext(6)).doubleValue();
      Object got = knob.normalize(v);
      assertEquals(expected, (double) got, 0.0, "six digits of " + v);
      assertEquals(got, knob.normalize(got), "rounding again changes nothing: " + got);
    }
  }

  @Test
  void roundedValuesPrintAsWrittenInPostgresqlConf() {
    Knob knob = real(0, 10);
    assertEquals(0.0123, knob.normalize(0.012299999999999995));
    assertEquals(0.9, knob.normalize(0.9000000000000001));
    assertEquals(1.23457, knob.normalize(1.234567));
    assertEquals("0.0123", knob.render(knob.normalize(0.012299999999999995)));
  }
}
