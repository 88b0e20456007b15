package org.pgknob.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.testing.SharedPostgres;

/**
 * A reset copies the pristine database with CREATE DATABASE, then marks the copy with COMMENT ON
 * DATABASE; a kill -9 or the JVM's exit between the two leaves a copy without a comment. On the
 * real server: such a copy is recognised as pgknob's and the reset finished, while a user's own
 * database of the name, or an unmarked copy when no reset was under way, is still refused.
 */
class MarkedDatabasesCutResetTest {
  private static final MarkFormat FORMAT = new MarkFormat("cutreset", "size", 1);
  private static final String LIVE = "pgknob_cutreset";
  private static final String PRISTINE = MarkedDatabases.pristineName(LIVE);

  private final Target server = SharedPostgres.cluster();
  private Connection admin;
  private MarkedDatabases dbs;

  @BeforeEach
  void pristineCopyWithData() throws SQLException {
    admin = server.connect(MarkedDatabases.MAINTENANCE_DATABASE);
    dbs = new MarkedDatabases(admin, FORMAT, "drop it yourself", "build it again");
    dropBoth();
    dbs.createMarked(PRISTINE, FORMAT.building());
    try (Connection c = server.connect(PRISTINE);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE item (id int PRIMARY KEY, name text)");
      st.execute("INSERT INTO item SELECT i, 'item ' || i FROM generate_series(1, 5000) i");
    }
    dbs.setMark(PRISTINE, FORMAT.pristine(3));
    dbs.closeToConnections(PRISTINE);
  }

  @AfterEach
  void dropTheTestsDatabases() throws SQLException {
    dropBoth();
    admin.close();
  }

  @Test
  void aCopyLeftUnmarkedByACutResetIsMarkedAndTheResetFinished() throws SQLException {
    dbs.setMark(PRISTINE, FORMAT.pristine(3).withResetting(true));
    execute("CREATE DATABASE " + LIVE + " TEMPLATE " + PRISTINE + " STRATEGY FILE_COPY");
    assertEquals(Optional.of(""), dbs.comment(LIVE), "the cut: a copy without a comment");

    assertEquals(Optional.of(FORMAT.live(3)), dbs.mark(LIVE));
    assertEquals(Optional.of(FORMAT.live(3).comment()), dbs.comment(LIVE));
    assertEquals(Optional.of(FORMAT.pristine(3)), dbs.mark(PRISTINE), "no reset under way now");

    dbs.resetFromPristine(LIVE);
    assertEquals(Optional.of(FORMAT.live(3)), dbs.mark(LIVE));
    assertEquals(Optional.of(FORMAT.pristine(3)), dbs.mark(PRISTINE), "a whole reset clears it");
  }

  /**
   * A reset of a name without a pristine copy names the databases whose copy is here: tprocc run
   * reads "tprocc" unless told, where tune builds tprocc_w2, and only said to build it again.
   */
  @Test
  void aResetOfAnotherNameNamesTheDatabasesWhoseCopyIsHere() {
    PgknobException missing =
        assertThrows(PgknobException.class, () -> dbs.resetFromPristine("pgknob_cutreset_other"));
    assertEquals(
        "the pristine copy pgknob_cutreset_other_pristine that resets start from is missing",
        missing.getMessage());
    assertEquals("give --database " + LIVE + " (built here), or build it again", missing.fix());
  }

  @Test
  void aUsersOwnDatabaseOfTheNameIsRefusedEvenWhileAResetIsUnderWay() throws SQLException {
    dbs.setMark(PRISTINE, FORMAT.pristine(3).withResetting(true));
    execute("CREATE DATABASE " + LIVE); // the user's, from template1: not the pristine's size

    PgknobException refused = assertThrows(PgknobException.class, () -> dbs.mark(LIVE));
    assertTrue(refused.getMessage().contains("pgknob did not create it"), refused.getMessage());
    assertThrows(PgknobException.class, () -> dbs.resetFromPristine(LIVE));
    assertEquals(Optional.of(""), dbs.comment(LIVE), "still there, still the user's");
  }

  @Test
  void anUnmarkedCopyIsRefusedWhenNoResetWasUnderWay() throws SQLException {
    execute("CREATE DATABASE " + LIVE + " TEMPLATE " + PRISTINE + " STRATEGY FILE_COPY");

    assertThrows(PgknobException.class, () -> dbs.mark(LIVE));
    assertEquals(Optional.of(""), dbs.comment(LIVE));
  }

  private void dropBoth() throws SQLException {
    execute("DROP DATABASE IF EXISTS " + LIVE + " WITH (FORCE)");
    execute("DROP DATABASE IF EXISTS " + PRISTINE + " WITH (FORCE)");
  }

  private void execute(String sql) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute(sql);
    }
  }
}
