package org.pgknob.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a change back from the server: a reload reaches the postmaster and its children
 * asynchronously, so a change is done only when fresh backends show every value asked for.
 */
final class SettingsReadBack {
  private static final Duration TIMEOUT = Duration.ofSeconds(15);

  private SettingsReadBack() {}

  /**
   * Waits until fresh connections show every expected value and nothing waits for a restart.
   *
   * @param expected setting name to value as pg_settings shows it (base units)
   * @return what still differs when the wait ends, empty when all is as expected
   */
  static List<String> await(ServerControl server, Map<String, String> expected) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      List<String> mismatches = mismatches(server, expected);
      if (mismatches.isEmpty() || System.nanoTime() > deadline) {
        return mismatches;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return mismatches;
      }
    }
  }

  private static List<String> mismatches(ServerControl server, Map<String, String> expected) {
    List<String> out = new ArrayList<>();
    // A new backend each time, not a pooled one: only a session that starts after the reload
    // shows settings of the backend context as they now are.
    try (Connection conn = server.connect()) {
      Map<String, ServerSetting> now = PgSettings.byName(conn);
      for (Map.Entry<String, String> e : expected.entrySet()) {
        ServerSetting s = now.get(e.getKey());
        // Strings may be normalized by the server, and client-set values hide the server's.
        if (s == null
            || "string".equals(s.vartype())
            || "client".equals(s.source())
            || "session".equals(s.source())) {
          continue;
        }
        if (s.pendingRestart()) {
          out.add(s.name() + " still waits for a restart");
        } else if (!SettingValue.sameValue(s, e.getValue(), s.setting())) {
          out.add(
              s.name()
                  + " shows "
                  + s.display()
                  + ", not "
                  + SettingValue.withUnit(s, e.getValue()));
        }
      }
    } catch (SQLException e) {
      out.add("cannot read the settings back: " + ServerMessages.of(e));
    }
    return out;
  }
}
