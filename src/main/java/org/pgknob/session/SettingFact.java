package org.pgknob.session;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.pgknob.server.SettingValue;

/**
 * What a session records about a setting it may change, so exports can say it without the server:
 * its default (the boot value, as PostgreSQL takes it, e.g. 128MB) and what applies a change.
 *
 * @param bootValue the server's built-in default, with its unit
 * @param context reload (a reload applies it), restart (only a restart does) or fixed (neither)
 */
public record SettingFact(String bootValue, String context) {
  public static final String RELOAD = "reload";
  public static final String RESTART = "restart";
  public static final String FIXED = "fixed";

  /** The facts of {@code names} from pg_settings; names the server lacks are left out. */
  public static Map<String, SettingFact> read(Connection conn, Collection<String> names)
      throws SQLException {
    Map<String, SettingFact> out = new TreeMap<>();
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT name, boot_val, unit, context FROM pg_settings WHERE name = ANY(?)")) {
      ps.setArray(1, conn.createArrayOf("text", names.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(
              rs.getString(1),
              new SettingFact(
                  SettingValue.withUnit(rs.getString(2), rs.getString(3)),
                  contextOf(rs.getString(4))));
        }
      }
    }
    return out;
  }

  /** pg_settings.context to what applies a change: postmaster needs a restart. */
  static String contextOf(String pgContext) {
    return switch (pgContext) {
      case "postmaster" -> RESTART;
      case "internal" -> FIXED;
      default -> RELOAD;
    };
  }

  public boolean needsRestart() {
    return RESTART.equals(context);
  }
}
