package org.pgknob.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;

/**
 * A reset as a role that is not a superuser, on the real server: DROP DATABASE WITH (FORCE) must
 * signal every process in the database, and such a role may not signal an autovacuum worker (nor
 * another role's session). On Debian's PostgreSQL 15 a session's fifth trial failed that way while
 * autovacuum cleaned up after the fourth.
 */
class MarkedDatabasesPlainRoleTest {
  private static final MarkFormat FORMAT = new MarkFormat("plainrole", "size", 1);
  private static final String LIVE = "pgknob_plainrole";
  private static final String PRISTINE = MarkedDatabases.pristineName(LIVE);
  private static final String ROLE = "pgknob_resetter";
  private static final String OTHER_ROLE = "pgknob_bystander";
  private static final String PASSWORD = "resetter-pw-7";

  private Connection superuser;
  private Connection admin;
  private MarkedDatabases dbs;

  @BeforeEach
  void pristineCopyBuiltByAPlainRole() throws SQLException {
    superuser = SharedPostgres.connect();
    dropEverything();
    execute(superuser, "CREATE ROLE " + ROLE + " LOGIN CREATEDB PASSWORD '" + PASSWORD + "'");
    execute(superuser, "CREATE ROLE " + OTHER_ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
    admin = connectAs(ROLE, MarkedDatabases.MAINTENANCE_DATABASE);
    dbs = new MarkedDatabases(admin, FORMAT, "drop it yourself", "build it again");
    dbs.createMarked(PRISTINE, FORMAT.building());
    try (Connection c = connectAs(ROLE, PRISTINE)) {
      // Vacuumed slowly (a cost limit of 1 and 100 ms naps), so its autovacuum worker stays.
      execute(
          c,
          "CREATE TABLE item (id int) WITH (autovacuum_vacuum_cost_delay = 100,"
              + " autovacuum_vacuum_cost_limit = 1, autovacuum_vacuum_threshold = 0,"
              + " autovacuum_vacuum_scale_factor = 0, autovacuum_analyze_threshold = 0)");
      execute(c, "INSERT INTO item SELECT generate_series(1, 200000)");
    }
    dbs.setMark(PRISTINE, FORMAT.pristine(1));
    dbs.closeToConnections(PRISTINE);
    dbs.resetFromPristine(LIVE);
  }

  @AfterEach
  void dropTheTestsDatabasesAndRoles() throws SQLException {
    try {
      execute(superuser, "ALTER SYSTEM RESET autovacuum_naptime");
      execute(superuser, "SELECT pg_reload_conf()");
      admin.close();
      dropEverything();
    } finally {
      superuser.close();
    }
  }

  @Test
  void aResetEndsAnAutovacuumWorkerTheRoleMayNotSignal() throws Exception {
    try (Connection c = connectAs(ROLE, LIVE)) {
      execute(c, "DELETE FROM item");
    }
    execute(superuser, "ALTER SYSTEM SET autovacuum_naptime = '1s'");
    execute(superuser, "SELECT pg_reload_conf()");
    assertTrue(autovacuumWorkerAppearsIn(LIVE, 60), "no autovacuum worker came to " + LIVE);

    Path log = SharedPostgres.cluster().logFile();
    long logBefore = Files.size(log);

    dbs.resetFromPristine(LIVE);

    assertEquals(Optional.of(FORMAT.live(1)), dbs.mark(LIVE));
    assertEquals(200000, count(LIVE), "a fresh copy of the pristine data");
    String logged = logSince(log, logBefore);
    // Before, FORCE was tried first and its refusal logged as an ERROR at nearly every reset.
    assertFalse(logged.contains("terminate"), logged);
  }

  @Test
  void anotherRolesSessionInTheDatabaseIsNamedWithTheFix() throws Exception {
    execute(superuser, "GRANT CONNECT ON DATABASE " + LIVE + " TO " + OTHER_ROLE);
    try (Connection bystander = connectAs(OTHER_ROLE, LIVE)) {
      PgknobException e = assertThrows(PgknobException.class, () -> dbs.resetFromPristine(LIVE));

      assertEquals(
          "the database "
              + LIVE
              + " is pgknob's, but a session of another role is connected to it, which role "
              + ROLE
              + " may not end",
          e.getMessage());
      assertTrue(e.fix().endsWith("GRANT pg_signal_backend TO \"" + ROLE + "\""), e.fix());
      assertFalse(bystander.isClosed());
    }
  }

  private boolean autovacuumWorkerAppearsIn(String database, int seconds) throws Exception {
    for (int i = 0; i < seconds * 4; i++) {
      try (Statement st = superuser.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'"
                      + " AND datname = '"
                      + database
                      + "'")) {
        rs.next();
        if (rs.getInt(1) > 0) {
          return true;
        }
      }
      Thread.sleep(250);
    }
    return false;
  }

  private static String logSince(Path log, long offset) throws Exception {
    byte[] all = Files.readAllBytes(log);
    return new String(all, (int) offset, all.length - (int) offset, StandardCharsets.UTF_8);
  }

  private long count(String database) throws SQLException {
    try (Connection c = connectAs(ROLE, database);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM item")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private void dropEverything() throws SQLException {
    execute(superuser, "DROP DATABASE IF EXISTS " + LIVE + " WITH (FORCE)");
    execute(superuser, "DROP DATABASE IF EXISTS " + PRISTINE + " WITH (FORCE)");
    execute(superuser, "DROP ROLE IF EXISTS " + ROLE);
    execute(superuser, "DROP ROLE IF EXISTS " + OTHER_ROLE);
  }

  private static Connection connectAs(String role, String database) throws SQLException {
    return DriverManager.getConnection(SharedPostgres.cluster().jdbcUrl(database), role, PASSWORD);
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
