package org.pgknob.target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;

/**
 * Finds the postmaster of a server reached by JDBC when it runs on this host: its data directory's
 * postmaster.pid names a live process whose port is the server's. For a server on another host (or
 * a data directory this user cannot read) there is none, and process figures are unavailable.
 */
public final class LocalPostmaster {
  private LocalPostmaster() {}

  public static OptionalLong find(Connection conn) {
    String dataDirectory;
    String port;
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT current_setting('data_directory'), current_setting('port')")) {
      rs.next();
      dataDirectory = rs.getString(1);
      port = rs.getString(2);
    } catch (SQLException e) {
      // reading data_directory needs superuser or pg_read_all_settings
      return OptionalLong.empty();
    }
    try {
      List<String> lines = Files.readAllLines(Path.of(dataDirectory, "postmaster.pid"));
      // postmaster.pid: pid, data directory, start time, port, ...
      if (lines.size() < 4
          || !lines.get(1).equals(dataDirectory)
          || !lines.get(3).trim().equals(port)) {
        return OptionalLong.empty();
      }
      long pid = Long.parseLong(lines.get(0).trim());
      return Files.isDirectory(Path.of("/proc", Long.toString(pid)))
          ? OptionalLong.of(pid)
          : OptionalLong.empty();
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }
}
