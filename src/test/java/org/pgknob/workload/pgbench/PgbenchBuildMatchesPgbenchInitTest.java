package org.pgknob.workload.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.Progress;
import org.pgknob.workload.Workload;
import org.pgknob.workload.Workloads;

/**
 * pgknob's build of pgbench's database against the real {@code pgbench -i} (Debian's
 * postgresql-client, on PATH in CI) at scale 1 on the same server: the same tables, columns and
 * storage options, the same rows, and rows of the same width (a filler written where pgbench leaves
 * NULL makes the branches' hot rows three times as wide).
 */
class PgbenchBuildMatchesPgbenchInitTest {
  private static final String REFERENCE = "pgbench_init_reference";

  @Test
  void tablesRowsAndRowWidthsAreThoseOfPgbenchInit() throws Exception {
    Assumptions.assumeTrue(
        onPath("pgbench"), "pgbench is not on PATH: apt-get install postgresql-client");
    ManagedCluster server = SharedPostgres.cluster();
    Workload pgknobs =
        Workloads.spec("pgbench-select", Map.of("scale", 1, "users", 1)).create(0, 1);
    pgknobs.prepare(server, Progress.SILENT);
    pgknobs.reset(server);
    try (Connection c = server.connect("postgres");
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + REFERENCE);
      st.execute("CREATE DATABASE " + REFERENCE);
    }
    pgbenchInit(server);

    for (String table : PgbenchBuilder.TABLES) {
      assertEquals(
          describe(server, REFERENCE, table),
          describe(server, "pgbench_s1", table),
          table + ": pgbench -i's (expected) against pgknob's");
    }
  }

  /** Columns, storage options, indexes, then rows, NULL fillers and summed row widths. */
  private static List<String> describe(ManagedCluster server, String database, String table)
      throws SQLException {
    List<String> facts = new ArrayList<>();
    try (Connection c = server.connect(database);
        Statement st = c.createStatement()) {
      facts.add(
          one(
              st,
              "SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod)"
                  + " || CASE WHEN attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY attnum)"
                  + " FROM pg_attribute WHERE attrelid = '"
                  + table
                  + "'::regclass AND attnum > 0 AND NOT attisdropped"));
      facts.add(
          "options "
              + one(st, "SELECT reloptions FROM pg_class WHERE oid = '" + table + "'::regclass"));
      facts.add(
          "indexes "
              + one(
                  st,
                  "SELECT string_agg(indexdef, '; ' ORDER BY indexname) FROM pg_indexes"
                      + " WHERE tablename = '"
                      + table
                      + "'"));
      facts.add(
          "rows, NULL fillers, bytes "
              + one(
                  st,
                  "SELECT count(*) || ' ' || count(*) FILTER (WHERE filler IS NULL) || ' '"
                      + " || coalesce(sum(pg_column_size(t.*)), 0) FROM "
                      + table
                      + " t"));
    }
    return facts;
  }

  private static String one(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static void pgbenchInit(ManagedCluster server) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
            "pgbench",
            "-i",
            "-q",
            "-s",
            "1",
            "-h",
            "127.0.0.1",
            "-p",
            Integer.toString(server.port()),
            "-U",
            ManagedCluster.SUPERUSER,
            REFERENCE);
    pb.environment().put("PGPASSWORD", Files.readString(server.passwordFile()).trim());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError("pgbench -i failed:\n" + out);
    }
  }

  private static boolean onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(new File(dir, program).toPath())) {
        return true;
      }
    }
    return false;
  }
}
