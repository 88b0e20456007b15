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

  @Test
  void otherNumbersKeepTwoSignificantDigitsWithinFivePercent() {
    assertEquals("1.6", DbaRounding.number("1.63335"));
    assertEquals("0.9", DbaRounding.number("0.8971"));
    assertEquals("0.91", DbaRounding.number("0.914825"));
    assertEquals("0.012", DbaRounding.number("0.0123"));
    assertEquals("330s", DbaRounding.number("331s"));
    assertEquals("150ms", DbaRounding.number("146ms"));
    assertEquals("110", DbaRounding.number("114"), "an integer stays an integer");
    assertEquals("19000", DbaRounding.number("19293"));
    assertEquals("10", DbaRounding.number("10.5"), "the farthest two digits go: 4.8%");
  }

  @Test
  void valuesWithFewDigitsMemoryWordsAndOddFormsAreLeftAsTheyAre() {
    assertEquals("72", DbaRounding.number("72"));
    assertEquals("1.1", DbaRounding.number("1.1"));
    assertEquals("-1", DbaRounding.number("-1"));
    assertEquals("0", DbaRounding.number("0"));
    assertEquals("1816MB", DbaRounding.number("1816MB"), "memory has its own rule");
    assertEquals("on", DbaRounding.number("on"));
    assertEquals("010", DbaRounding.number("010"), "octal for an integer setting");
    assertEquals("1e-05", DbaRounding.number("1e-05"));
    assertEquals("1.5h", DbaRounding.number("1.5h"));
  }
}
