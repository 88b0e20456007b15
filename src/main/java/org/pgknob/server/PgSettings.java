package org.pgknob.server;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
            serverValue(
                conn,
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
                    rs.getBoolean("pending_restart"))));
      }
    }
    return settings;
  }

  /**
   * The server's value of a setting the control session pinned for itself ({@link ControlSession}):
   * what any other session sees, so originals are recorded and verified right. Pinned with SET,
   * reset_val still holds it; pinned as a startup option, the configuration files do
   * (pg_file_settings), else the built-in default. Its source is not shown for the session, so it
   * is given as {@code default} when the value is the built-in one, else {@code configuration
   * file}.
   */
  private static ServerSetting serverValue(Connection conn, ServerSetting s) {
    if (!ControlSession.pinnedNames().contains(s.name())) {
      return s;
    }
    String value;
    if ("session".equals(s.source())) {
      value = s.resetVal();
    } else if ("client".equals(s.source()) && ControlSession.STARTUP.containsKey(s.name())) {
      value = fileValue(conn, s).orElse(s.bootVal());
    } else {
      return s;
    }
    String source = Objects.equals(value, s.bootVal()) ? "default" : "configuration file";
    return new ServerSetting(
        s.name(),
        value,
        s.unit(),
        s.vartype(),
        s.context(),
        s.minVal(),
        s.maxVal(),
        s.enumvals(),
        s.bootVal(),
        value,
        source,
        null,
        s.pendingRestart());
  }

  /** The value the configuration files give {@code s}, in base units, if this role may see it. */
  private static Optional<String> fileValue(Connection conn, ServerSetting s) {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT setting FROM pg_catalog.pg_file_settings WHERE name OPERATOR(pg_catalog.=) ?"
                + " AND applied ORDER BY seqno DESC LIMIT 1")) {
      ps.setString(1, s.name());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(SettingValue.canonical(s, rs.getString(1)))
            : Optional.empty();
      }
    } catch (SQLException | RuntimeException e) {
      return Optional.empty(); // pg_file_settings needs a superuser
    }
  }

  static Map<String, ServerSetting> byName(Connection conn) throws SQLException {
    Map<String, ServerSetting> map = new LinkedHashMap<>();
    for (ServerSetting s : read(conn)) {
      map.put(s.name(), s);
    }
    return map;
  }
}
