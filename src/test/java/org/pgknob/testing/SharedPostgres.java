package org.pgknob.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.PgknobHome;
import org.pgknob.server.PostgresBinaries;

/**
 * One real PostgreSQL 18 cluster for the whole test run: initdb once, started on first use, stopped
 * and deleted when the JVM exits.
 *
 * <p>Tests that change settings must put them back (ALTER SYSTEM RESET and a reload or restart) so
 * the next test sees defaults; {@link #resetSettings()} does that.
 */
public final class SharedPostgres {
  private static ManagedCluster cluster;

  private SharedPostgres() {}

  public static synchronized ManagedCluster cluster() {
    if (cluster == null) {
      try {
        Path home = PgknobHome.resolve();
        Path dir = Files.createTempDirectory(Files.createDirectories(home), "test-cluster-");
        ManagedCluster c = ManagedCluster.open(dir, PostgresBinaries.ensure(home), 0);
        c.start();
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> {
                      try {
                        c.stop();
                        PgknobHome.deleteTree(dir);
                      } catch (Exception e) {
                        // best effort at JVM exit
                      }
                    }));
        cluster = c;
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    if (!cluster.isRunning()) {
      cluster.start();
    }
    return cluster;
  }

  /** The command-line options that name this cluster as a --target, as a user would give them. */
  public static List<String> targetArguments() {
    ManagedCluster c = cluster();
    return List.of(
        "--target",
        c.jdbcUrl("postgres"),
        "--user",
        "postgres",
        "--password-file",
        c.passwordFile().toString());
  }

  public static Connection connect() throws SQLException {
    return cluster().connect("postgres");
  }

  /**
   * Every setting whose value comes from postgresql.auto.conf (i.e. from ALTER SYSTEM), as
   * name=setting joined by commas: what a test compares to show that nothing changed.
   */
  public static String alterSystemSettings() throws SQLException {
    try (Connection conn = connect();
        var rs =
            conn.createStatement()
                .executeQuery(
                    "SELECT string_agg(name || '=' || setting, ',' ORDER BY name) FROM pg_settings"
                        + " WHERE sourcefile LIKE '%postgresql.auto.conf'")) {
      rs.next();
      return String.valueOf(rs.getString(1));
    }
  }

  /** How many databases of the TPROC-C workload (tprocc, its pristine copy) the cluster holds. */
  public static int tproccDatabases() throws SQLException {
    try (Connection conn = connect();
        var rs =
            conn.createStatement()
                .executeQuery("SELECT count(*) FROM pg_database WHERE datname LIKE 'tprocc%'")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Removes every ALTER SYSTEM setting and restarts if any of them needed it. */
  public static void resetSettings() throws SQLException {
    ManagedCluster c = cluster();
    try (Connection conn = c.connect("postgres");
        var st = conn.createStatement()) {
      st.execute("ALTER SYSTEM RESET ALL");
      st.execute("SELECT pg_reload_conf()");
    }
    c.restart();
  }
}
