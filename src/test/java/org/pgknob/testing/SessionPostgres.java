package org.pgknob.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.PgknobHome;
import org.pgknob.server.PostgresBinaries;

/**
 * A real PostgreSQL 18 cluster of its own for tests that run whole tuning sessions: they change
 * many settings, restart the server and kill pgknob mid-trial, so they do not share {@link
 * SharedPostgres}'s cluster with the rest of the suite. One per test JVM, created on first use,
 * stopped and deleted when the JVM exits; its TPROC-C database is built by the first session and
 * reused by the next.
 */
public final class SessionPostgres {
  private static final String AUTO_CONF = "postgresql.auto.conf";
  private static Path clusterDir;

  private SessionPostgres() {}

  /**
   * The cluster, running. A new handle on each call: a pgknob process (a child, or a resume that
   * restarted the server) may have moved it to another port, and a fresh handle adopts the port it
   * runs on.
   */
  public static synchronized ManagedCluster cluster() {
    Path home = PgknobHome.resolve();
    if (clusterDir == null) {
      try {
        clusterDir = Files.createTempDirectory(Files.createDirectories(home), "session-cluster-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Path dir = clusterDir;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      ManagedCluster.open(dir, PostgresBinaries.ensure(home), 0).stop();
                      PgknobHome.deleteTree(dir);
                    } catch (Exception e) {
                      // best effort at JVM exit
                    }
                  }));
    }
    ManagedCluster c = ManagedCluster.open(clusterDir, PostgresBinaries.ensure(home), 0);
    c.start();
    return c;
  }

  /** Every row of pg_settings as name to "setting (source)", read on a new connection. */
  public static Map<String, String> settings(ManagedCluster c) throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (Connection conn = c.connect("postgres");
        Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT name, setting, source FROM pg_settings")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2) + " (" + rs.getString(3) + ")");
      }
    }
    return out;
  }

  /**
   * The settings whose value or source differ between two {@link #settings} readings, as "name:
   * before -> after". The port is left out: a managed cluster that was down (pgknob killed
   * mid-restart) starts again on a free port, by design.
   */
  public static Set<String> differences(Map<String, String> before, Map<String, String> after) {
    Set<String> out = new TreeSet<>();
    Set<String> names = new TreeSet<>(before.keySet());
    names.addAll(after.keySet());
    names.remove("port");
    for (String name : names) {
      if (!Objects.equals(before.get(name), after.get(name))) {
        out.add(name + ": " + before.get(name) + " -> " + after.get(name));
      }
    }
    return out;
  }

  /** The settings ALTER SYSTEM wrote (postgresql.auto.conf), as the server reads them. */
  public static Map<String, String> alterSystemSettings(ManagedCluster c) throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (Connection conn = c.connect("postgres");
        Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT name, setting FROM pg_file_settings WHERE sourcefile LIKE '%/"
                    + AUTO_CONF
                    + "'")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    }
    return out;
  }

  /** The text of postgresql.auto.conf. */
  public static String autoConf(ManagedCluster c) throws IOException {
    return Files.readString(c.dataDir().resolve(AUTO_CONF));
  }
}
