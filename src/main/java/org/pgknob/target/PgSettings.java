package org.pgknob.target;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads pg_settings. */
final class PgSettings {
  private static final String QUERY =
      "SELECT name, setting, unit, vartype, context, min_val, max_val, enumvals, boot_val,"
          + " reset_val, source, sourcefile, pending_restart FROM pg_catalog.pg_settings ORDER BY name";

  private PgSettings() {}

  static List<ServerSetting> read(Connection conn) throws SQLException {
    List<ServerSetting> settings = new ArrayList<>();
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery(QUERY)) {
      while (rs.next()) {
        Array enumvals = rs.getArray("enumvals");
        List<String> values = new ArrayList<>();
        if (enumvals != null) {
          for (Object o : (Object[]) enumvals.getArray()) {
            values.add(o.toString());
          }
        }
        settings.add(
            new ServerSetting(
                rs.getString("name"),
                rs.getString("setting"),
                rs.getString("unit"),
                rs.getString("vartype"),
                rs.getString("context"),
                rs.getString("min_val"),
                rs.getString("max_val"),
                values,
                rs.getString("boot_val"),
                rs.getString("reset_val"),
                rs.getString("source"),
                rs.getString("sourcefile"),
                rs.getBoolean("pending_restart")));
      }
    }
    return settings;
  }

  static Map<String, ServerSetting> byName(Connection conn) throws SQLException {
    Map<String, ServerSetting> map = new LinkedHashMap<>();
    for (ServerSetting s : read(conn)) {
      map.put(s.name(), s);
    }
    return map;
  }
}
