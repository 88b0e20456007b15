package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DbaRoundingTest {
  private static final long MB = 1024;
  private static final long GB = 1024 * 1024;

  @Test
  void roundsToTheLargestWholeUnitWithinFivePercent() {
    assertEquals("6GB", DbaRounding.memoryKb(6170887, Long.MAX_VALUE));
    assertEquals("18GB", DbaRounding.memoryKb(18512661, Long.MAX_VALUE));
    assertEquals("74MB", DbaRounding.memoryKb(75730, Long.MAX_VALUE));
    assertEquals("1536MB", DbaRounding.memoryKb(1536 * MB, Long.MAX_VALUE), "1.5GB is no whole GB");
    assertEquals("7620MB", DbaRounding.memoryKb(7620 * MB, Long.MAX_VALUE), "7GB is 8% off");
    assertEquals("900kB", DbaRounding.memoryKb(900, Long.MAX_VALUE));
  }

  @Test
  void neverRoundsUpPastTheCeiling() {
    assertEquals("73MB", DbaRounding.memoryKb(75730, 75730), "down instead of up to 74MB");
    assertEquals("5888MB", DbaRounding.memoryKb(5888 * MB, 6000 * MB), "6GB crosses the ceiling");
    assertEquals("6GB", DbaRounding.memoryKb(6170887, 6 * GB));
    assertEquals("16MB", DbaRounding.memoryKb(16 * MB - 300, 16 * MB));
  }

  @Test
  void onlyMemoryValuesAreRounded() {
    assertEquals("6GB", DbaRounding.round("6170887kB", Long.MAX_VALUE));
    assertEquals("0.9", DbaRounding.round("0.9", Long.MAX_VALUE));
    assertEquals("1h", DbaRounding.round("1h", Long.MAX_VALUE));
    assertEquals("on", DbaRounding.round("on", Long.MAX_VALUE));
    assertEquals(Optional.of(2 * GB), DbaRounding.kilobytes("2GB"));
    assertEquals(Optional.empty(), DbaRounding.kilobytes("-1"));
  }
}
