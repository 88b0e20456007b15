package org.pgknob.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** Reads a server's {@link ServerFacts}; host figures only when the server is on this host. */
final class FactsReader {
  private FactsReader() {}

  static ServerFacts read(Connection conn, boolean local, OptionalLong postmasterPid)
      throws SQLException {
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('server_version'),"
                    + " current_setting('server_version_num')::int,"
                    + " (SELECT setting FROM pg_catalog.pg_settings WHERE name = 'data_directory'),"
                    + " current_user, current_setting('is_superuser') = 'on'")) {
      rs.next();
      if (!local) {
        return new ServerFacts(
            rs.getString(1),
            rs.getInt(2),
            rs.getString(3),
            false,
            OptionalLong.empty(),
            OptionalInt.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            rs.getString(4),
            rs.getBoolean(5));
      }
      long pid = postmasterPid.orElse(ProcessHandle.current().pid());
      // The server's cgroup, not this JVM's: a server in a container gets its quota of cores.
      int cores = Runtime.getRuntime().availableProcessors();
      OptionalInt cpuLimit = HostFacts.cgroupCpuLimit(pid);
      return new ServerFacts(
          rs.getString(1),
          rs.getInt(2),
          rs.getString(3),
          true,
          HostFacts.memTotalBytes(),
          OptionalInt.of(cpuLimit.isPresent() ? Math.min(cores, cpuLimit.getAsInt()) : cores),
          HostFacts.cgroupMemoryLimitBytes(pid),
          postmasterPid,
          rs.getString(4),
          rs.getBoolean(5));
    }
  }
}
