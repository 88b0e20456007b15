package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SettingValueTextTest {
  @Test
  void settingValuesCompareAcrossUnitsAndSpellings() {
    assertEquals(true, SettingValue.same("1GB", "1024MB"));
    assertEquals(true, SettingValue.same("5min", "300s"));
    assertEquals(true, SettingValue.same("1.10", "1.1"));
    assertEquals(true, SettingValue.same("on", "true"));
    assertEquals(true, SettingValue.same("2500us", "2.5ms"));
    assertEquals(true, SettingValue.same("0x10", "16"));
    assertEquals(true, SettingValue.same("Off", "no"));
    assertEquals(false, SettingValue.same("8MB", "8kB"));
    assertEquals(false, SettingValue.same("256mb", "256MB"), "units are case-sensitive");
    assertEquals("268435456B", SettingValue.canonical(" 256MB "));
    assertEquals("256mb", SettingValue.canonical("256mb"));
  }

  @Test
  void rawValuesAreShownInTheLargestWholeUnit() {
    assertEquals("128MB", SettingValue.withUnit("16384", "8kB"));
    assertEquals("5min", SettingValue.withUnit("300", "s"));
    assertEquals("-1", SettingValue.withUnit("-1", "8kB"));
    assertEquals("200", SettingValue.withUnit("200", ""));
    assertEquals("7864kB", SettingValue.withUnit("983", "8kB"));
    assertEquals("2.5ms", SettingValue.withUnit("2.5", "ms"));
    assertEquals(null, SettingValue.withUnit((String) null, "ms"));
  }
}
