package org.pgknob.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The settings a server offers, as far as computed configurations care (its {@link ServerFacts} say
 * what it is and where it runs): its major version, the settings it knows, the values its enum
 * settings accept (wal_compression lists lz4 only when built with it), and the running values of
 * the settings that size per-connection memory.
 *
 * @param majorVersion e.g. 18
 * @param settingNames every name in pg_settings
 * @param enumValues for enum settings, the values the server accepts
 * @param maxConnections the running max_connections
 * @param maxWorkerProcesses the running max_worker_processes
 */
public record SettingCatalog(
    int majorVersion,
    Set<String> settingNames,
    Map<String, Set<String>> enumValues,
    int maxConnections,
    int maxWorkerProcesses) {
  public SettingCatalog {
    settingNames = Set.copyOf(settingNames);
    enumValues = Map.copyOf(enumValues);
  }

  /** Reads the facts from pg_settings of a live server. */
  public static SettingCatalog read(Connection conn) throws SQLException {
    Set<String> names = new TreeSet<>();
    Map<String, Set<String>> enums = new TreeMap<>();
    int major = 0;
    int maxConnections = 0;
    int maxWorkers = 0;
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT name, setting, vartype, enumvals FROM pg_settings")) {
      while (rs.next()) {
        String name = rs.getString(1);
        names.add(name);
        if ("enum".equals(rs.getString(3)) && rs.getArray(4) != null) {
          String[] values = (String[]) rs.getArray(4).getArray();
          enums.put(name, Set.copyOf(Arrays.asList(values)));
        }
        switch (name) {
          case "server_version_num" -> major = Integer.parseInt(rs.getString(2)) / 10000;
          case "max_connections" -> maxConnections = Integer.parseInt(rs.getString(2));
          case "max_worker_processes" -> maxWorkers = Integer.parseInt(rs.getString(2));
          default -> {}
        }
      }
    }
    return new SettingCatalog(major, names, enums, maxConnections, maxWorkers);
  }

  public boolean has(String setting) {
    return settingNames.contains(setting);
  }

  /** True when {@code setting} exists and, if it is an enum, accepts {@code value}. */
  public boolean accepts(String setting, String value) {
    if (!has(setting)) {
      return false;
    }
    Set<String> values = enumValues.get(setting);
    return values == null || values.contains(value);
  }
}
