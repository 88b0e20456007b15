package org.pgknob.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's units and values written with them, as pg_settings and postgresql.conf spell them.
 */
class PgUnitTest {
  private static PgUnit unit(String text) {
    return PgUnit.parse(text).orElseThrow();
  }

  /** The quantity's number and unit text, or "none" when the text is no number. */
  private static String read(Optional<PgUnit.Quantity> q) {
    return q.map(v -> v.number().stripTrailingZeros().toPlainString() + "|" + v.unitText())
        .orElse("none");
  }

  private static String in(String value, String unit) {
    return PgUnit.Quantity.parse(value)
        .orElseThrow()
        .in(unit(unit))
        .map(d -> d.stripTrailingZeros().toPlainString())
        .orElse("no conversion");
  }

  @Test
  void readsUnitsWithAndWithoutMultiplier() {
    assertEquals(new PgUnit("8kB", PgUnit.Kind.MEMORY, 8192), unit("8kB"));
    assertTrue(unit("8kB").isMultiple());
    assertEquals(new PgUnit("ms", PgUnit.Kind.TIME, 1000), unit("ms"));
    assertFalse(unit("ms").isMultiple());
    assertEquals(PgUnit.NONE, unit(""));
    assertEquals(PgUnit.NONE, unit(null));
    assertEquals(Optional.empty(), PgUnit.parse("mb"), "units are case-sensitive");
    assertEquals(Optional.empty(), PgUnit.parse("0kB"));
    assertEquals(Optional.empty(), PgUnit.parse("furlong"));
  }

  @Test
  void readsNumbersWithOptionalUnitsAsPostgresWritesThem() {
    assertEquals("128|MB", read(PgUnit.Quantity.parse("128MB")));
    assertEquals("8|kB", read(PgUnit.Quantity.parse("8kB")));
    assertEquals("200|ms", read(PgUnit.Quantity.parse("200ms")));
    assertEquals("1.5|min", read(PgUnit.Quantity.parse(" 1.5 min ")));
    assertEquals("0.5|GB", read(PgUnit.Quantity.parse(".5GB")));
    assertEquals("1000|", read(PgUnit.Quantity.parse("1e3")));
    assertEquals("5|", read(PgUnit.Quantity.parse("+5")));
    assertEquals("-1|", read(PgUnit.Quantity.parse("-1")));
    assertEquals("16|", read(PgUnit.Quantity.parse("0x10")));
    assertEquals("-31|kB", read(PgUnit.Quantity.parse("-0X1fkB")));
    assertEquals("256|mb", read(PgUnit.Quantity.parse("256mb")), "a unit PostgreSQL lacks is kept");
    assertEquals(Optional.empty(), PgUnit.Quantity.parse("256mb").orElseThrow().unit());
    assertEquals("none", read(PgUnit.Quantity.parse("abc")));
    assertEquals("none", read(PgUnit.Quantity.parse("")));
    assertEquals("none", read(PgUnit.Quantity.parse("1 2")));
    assertEquals("none", read(PgUnit.Quantity.parse("1e99999999999")), "out of any range");
  }

  @Test
  void readsALeadingZeroAsOctalOnlyInIntegers() {
    // As strtol with base 0 (integer settings) and strtod (real settings) do in guc.c.
    assertEquals("8|", read(PgUnit.Quantity.parseInteger("010")));
    assertEquals("10|", read(PgUnit.Quantity.parse("010")));
    assertEquals("none", read(PgUnit.Quantity.parseInteger("08")), "8 is no octal digit");
    assertEquals("8|", read(PgUnit.Quantity.parse("08")));
    assertEquals("0|", read(PgUnit.Quantity.parseInteger("0")));
    assertEquals("10.5|", read(PgUnit.Quantity.parseInteger("010.5")));
    assertEquals("16|MB", read(PgUnit.Quantity.parseInteger("0x10MB")));
  }

  @Test
  void convertsAValueToTheSettingsUnit() {
    assertEquals("32768", in("256MB", "8kB"));
    assertEquals("2.5", in("2500us", "ms"));
    assertEquals("90", in("1.5min", "s"));
    assertEquals("0.01666666666666667", in("1s", "min"));
    assertEquals("5", in("5", "8kB"), "a plain number is already in the setting's unit");
    assertEquals("no conversion", in("256ms", "8kB"));
    assertEquals("no conversion", in("256mb", "kB"));
    assertEquals("no conversion", in("1kB", ""));
    assertEquals(Optional.of(32768L), unit("MB").convertExactly(256, unit("8kB")));
    assertEquals(Optional.empty(), unit("kB").convertExactly(1, unit("8kB")));
    assertEquals(2.5, unit("us").convert(2500, unit("ms")));
  }

  @Test
  void writesWholeValuesInTheLargestUnitThatKeepsThemWhole() {
    assertEquals("128MB", unit("8kB").writeWhole(16384));
    assertEquals("7864kB", unit("8kB").writeWhole(983));
    assertEquals("1GB", unit("MB").writeWhole(1024));
    assertEquals("1B", unit("B").writeWhole(1));
    assertEquals("5min", unit("s").writeWhole(300));
    assertEquals("1500ms", unit("ms").writeWhole(1500));
    assertEquals("1d", unit("min").writeWhole(1440));
    assertEquals("0", unit("8kB").writeWhole(0));
    assertEquals("200", PgUnit.NONE.writeWhole(200));
    assertEquals(new BigDecimal("16384"), PgUnit.Quantity.parse("16384").orElseThrow().number());
  }

  @Test
  void bytesAreWrittenAndReadInPostgresqlsMemoryUnits() {
    assertEquals("512MB", PgUnit.readableBytes(512L << 20));
    assertEquals("1.5GB", PgUnit.readableBytes(1.5 * (1L << 30)));
    assertEquals("16kB", PgUnit.readableBytes(16 * 1024));
    assertEquals("100B", PgUnit.readableBytes(100));
    assertEquals(OptionalLong.of(8L << 30), PgUnit.parseBytes("8GB"));
    assertEquals(OptionalLong.of(8L << 30), PgUnit.parseBytes(" 8 gb "));
    assertEquals(OptionalLong.of(3L << 29), PgUnit.parseBytes("1.5GB"));
    assertEquals(OptionalLong.of(4096), PgUnit.parseBytes("4096"));
    assertTrue(PgUnit.parseBytes("8 parsecs").isEmpty());
    assertTrue(PgUnit.parseBytes("8s").isEmpty(), "a time unit is no size");
    assertTrue(PgUnit.parseBytes("GB").isEmpty());
  }
}
