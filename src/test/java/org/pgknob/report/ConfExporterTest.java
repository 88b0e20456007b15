package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.Json;
import org.pgknob.server.SettingValue;
import org.pgknob.testing.SharedPostgres;

class ConfExporterTest {
  static final BestConfig BEST =
      new BestConfig(
          "2026-11-29T22-10-00",
          "restart/tps",
          "18.1",
          "1.28x TPS (1.20 to 1.36), gain",
          List.of(
              new BestConfig.Setting(
                  "shared_buffers", "256MB", "128MB", "restart", "sweep: +18.0% TPS at this value"),
              new BestConfig.Setting("work_mem", "8MB", "4MB", "reload", ""),
              new BestConfig.Setting(
                  "random_page_cost", "1.1", "4", "reload", "model importance 0.20: x"),
              new BestConfig.Setting("checkpoint_completion_target", "0.8", "0.9", "reload", ""),
              new BestConfig.Setting("max_wal_size", "2GB", "1GB", "reload", ""),
              new BestConfig.Setting("jit", "off", "on", "reload", ""),
              new BestConfig.Setting(
                  "log_line_prefix", "%m [%p] it's \\x ", "%m [%p] ", "reload", "")));

  @Test
  void confFragmentParsesBackToTheSameSettings() {
    String conf = ConfExporter.conf(BEST);
    assertEquals(BEST.values(), ConfFile.parse("best-restart-tps.conf", conf));
    assertTrue(
        conf.contains(
            "# shared_buffers: 128MB (default) -> 256MB; sweep: +18.0% TPS at this value;"
                + " restart\nshared_buffers = '256MB'\n"),
        conf);
    assertTrue(
        conf.contains("# work_mem: 4MB (default) -> 8MB; effect not measured alone; reload"));
    assertTrue(
        conf.startsWith("# pgknob: restart/tps configuration of session 2026-11-29T22-10-00"));
  }

  @Test
  void aSettingThatTradesDurabilityIsMarkedAboveItselfAndInTheHeader() {
    BestConfig risky =
        new BestConfig(
            "2026-12-02T13-01-10",
            "reload/tps",
            "18.6",
            "1.50x TPS (1.32 to 1.71), gain",
            List.of(
                new BestConfig.Setting("work_mem", "8MB", "4MB", "reload", ""),
                new BestConfig.Setting(
                    "synchronous_commit",
                    "off",
                    "on",
                    "reload",
                    "sweep: +94.9% TPS at this value",
                    "the last commits before a crash may be lost; allowed by"
                        + " --allow-durability-tradeoff")));
    String conf = ConfExporter.conf(risky);
    assertTrue(
        conf.contains(
            "# NOT DURABLE: the last commits before a crash may be lost; allowed by"
                + " --allow-durability-tradeoff\nsynchronous_commit = 'off'\n"),
        conf);
    assertTrue(conf.contains("# NOT DURABLE: synchronous_commit=off trades durability"), conf);
    String sql = ConfExporter.alterSystem(risky);
    assertTrue(
        sql.contains(
            "-- NOT DURABLE: the last commits before a crash may be lost; allowed by"
                + " --allow-durability-tradeoff\nALTER SYSTEM SET synchronous_commit = 'off';"),
        sql);
    assertTrue(ConfExporter.json(risky).contains("\"durabilityRisk\" : \"the last commits"));
    assertFalse(ConfExporter.conf(BEST).contains("NOT DURABLE"));
  }

  @Test
  void aWalTooLargeForTheSessionsDiskIsNamedInTheHeaderOfEveryFormat() {
    String why =
        "the WAL it may keep, 8GB (max_wal_size + wal_keep_size), exceeds the disk limit 1.2GB"
            + " (0.5 x the WAL disk's 2.4GB of free space and WAL at the start, /srv/pg)";
    BestConfig pgtune =
        new BestConfig(
            "2026-12-06T08-00-00",
            "pgtune",
            "18.6",
            "1.10x TPS (1.02 to 1.19), gain",
            List.of(
                new BestConfig.Setting("max_wal_size", "8GB", "1GB", "reload", ""),
                new BestConfig.Setting("min_wal_size", "2GB", "80MB", "reload", "")),
            List.of(),
            why);
    String header = "TOO MUCH WAL FOR THE DISK: " + why + ". Lower max_wal_size first";
    String conf = ConfExporter.conf(pgtune);
    assertTrue(conf.contains("\n# " + header), conf);
    assertEquals(pgtune.values(), ConfFile.parse("pgtune.conf", conf), "still a valid file");
    assertTrue(ConfExporter.alterSystem(pgtune).contains("\n-- " + header));
    assertTrue(ConfExporter.json(pgtune).contains("\"diskWarning\" : \"" + why + "\""));
    assertFalse(ConfExporter.conf(BEST).contains("TOO MUCH WAL"));
    assertFalse(ConfExporter.json(BEST).contains("diskWarning"));
  }

  @Test
  void alterSystemScriptQuotesValuesAndNamesWhatNeedsARestart() {
    String sql = ConfExporter.alterSystem(BEST);
    assertTrue(sql.contains("ALTER SYSTEM SET work_mem = '8MB';\n"), sql);
    assertTrue(sql.contains("ALTER SYSTEM SET log_line_prefix = E'%m [%p] it''s \\\\x ';\n"), sql);
    assertTrue(
        sql.endsWith(
            "SELECT pg_reload_conf();\n-- Needs a server restart to take effect: shared_buffers\n"),
        sql);
  }

  @Test
  void jsonHoldsTheSettingsMapAndDetails() throws Exception {
    JsonNode json = Json.mapper().readTree(ConfExporter.json(BEST));
    assertEquals("8MB", json.get("settings").get("work_mem").asText());
    assertEquals("restart", json.get("details").get(0).get("context").asText());
    assertEquals("shared_buffers", json.get("restartNeeded").get(0).asText());
  }

  @Test
  void refusesNamesAndValuesThatCouldBreakOutOfTheStatement() {
    BestConfig badName =
        new BestConfig(
            "s",
            "restart/tps",
            "18",
            "",
            List.of(new BestConfig.Setting("jit; DROP", "off", "", "", "")));
    assertThrows(IllegalArgumentException.class, () -> ConfExporter.alterSystem(badName));
    BestConfig badValue =
        new BestConfig(
            "s",
            "restart/tps",
            "18",
            "",
            List.of(new BestConfig.Setting("jit", "off\n", "", "", "")));
    assertThrows(IllegalArgumentException.class, () -> ConfExporter.conf(badValue));
  }

  @Test
  void alterSystemScriptAppliedToTheServerReadsBackTheSameSettings() throws Exception {
    String sql = ConfExporter.alterSystem(BEST);
    try {
      try (Connection conn = SharedPostgres.connect();
          Statement st = conn.createStatement()) {
        for (String line : sql.split("\n")) {
          if (!line.startsWith("--")) {
            st.execute(line.substring(0, line.length() - 1));
          }
        }
      }
      SharedPostgres.cluster().restart();
      try (Connection conn = SharedPostgres.connect()) {
        for (Map.Entry<String, String> e : BEST.values().entrySet()) {
          try (var ps = conn.prepareStatement("SELECT current_setting(?)")) {
            ps.setString(1, e.getKey());
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              assertTrue(
                  SettingValue.same(e.getValue(), rs.getString(1)),
                  e.getKey() + ": exported " + e.getValue() + ", server has " + rs.getString(1));
            }
          }
        }
      }
    } finally {
      SharedPostgres.resetSettings();
    }
  }
}
