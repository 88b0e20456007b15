package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a change will do, worked out from pg_settings before anything is written. */
class SettingChangesTest {
  private static final ServerSetting WORK_MEM =
      setting("work_mem", "4096", "kB", "user", "default");
  private static final ServerSetting SHARED_BUFFERS =
      setting("shared_buffers", "16384", "8kB", "postmaster", "default");
  private static final ServerSetting RANDOM_PAGE_COST =
      new ServerSetting(
          "random_page_cost",
          "1.1",
          null,
          "real",
          "user",
          "0",
          "1.79769e+308",
          null,
          "4",
          "1.1",
          "configuration file",
          "/etc/postgresql.conf",
          false);

  private static final Map<String, ServerSetting> NOW =
      byName(WORK_MEM, SHARED_BUFFERS, RANDOM_PAGE_COST);

  private static ServerSetting setting(
      String name, String value, String unit, String context, String source) {
    return new ServerSetting(
        name,
        value,
        unit,
        "integer",
        context,
        "16",
        "2147483647",
        null,
        value,
        value,
        source,
        null,
        false);
  }

  private static Map<String, ServerSetting> byName(ServerSetting... settings) {
    Map<String, ServerSetting> out = new LinkedHashMap<>();
    for (ServerSetting s : settings) {
      out.put(s.name(), s);
    }
    return out;
  }

  private static OriginalSetting noOriginal(String name) {
    throw new AssertionError("no earlier change: no original is asked for, but " + name + " was");
  }

  @Test
  void aValueTheServerRunsAlreadyIsWrittenButIsNoChange() {
    SettingChanges c =
        SettingChanges.of(NOW, Map.of("work_mem", "4MB"), Set.of(), SettingChangesTest::noOriginal);

    assertEquals(Set.of("work_mem"), c.touched());
    assertEquals(List.of(), c.changes());
    assertFalse(c.restart());
  }

  @Test
  void aSettingThatNeedsARestartIsNamedInTheServersSpelling() {
    SettingChanges c =
        SettingChanges.of(
            NOW,
            Map.of(" Shared_Buffers ", " 1GB ", "work_mem", "64MB"),
            Set.of(),
            SettingChangesTest::noOriginal);

    assertEquals("1GB", c.wanted().get("shared_buffers"), c.wanted().toString());
    assertTrue(c.restart());
    assertEquals(List.of("shared_buffers"), c.needingRestart());
    assertEquals(2, c.changes().size(), c.changes().toString());
  }

  @Test
  void aSettingAnEarlierChangeTouchedGoesBackToItsOriginal() {
    // an earlier trial set random_page_cost from 4 (postgresql.conf) to 1.1; this one asks only
    // for work_mem, so random_page_cost is written back to 4 and read back as 4
    OriginalSetting original =
        new OriginalSetting(
            "random_page_cost",
            "4",
            null,
            "real",
            "user",
            "configuration file",
            false,
            null,
            false);
    SettingChanges c =
        SettingChanges.of(
            NOW,
            Map.of("work_mem", "8MB"),
            Set.of("random_page_cost"),
            name -> {
              assertEquals("random_page_cost", name);
              return original;
            });

    assertEquals(List.of("work_mem", "random_page_cost"), List.copyOf(c.touched()));
    assertEquals("4", c.expected().get("random_page_cost"));
    SettingChange back = c.changes().get(1);
    assertEquals("random_page_cost", back.name());
    assertEquals("1.1", back.before());
    assertEquals("4 (original)", back.after());
    assertFalse(c.restart());
  }

  @Test
  void anUnknownSettingIsRefusedBeforeAnythingElse() {
    SettingRejectedException e =
        assertThrows(
            SettingRejectedException.class,
            () ->
                SettingChanges.of(
                    NOW, Map.of("work_mme", "8MB"), Set.of(), SettingChangesTest::noOriginal));
    assertTrue(e.getMessage().contains("unknown setting 'work_mme'"), e.getMessage());
  }
}
