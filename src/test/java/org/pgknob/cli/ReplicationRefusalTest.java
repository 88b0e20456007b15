package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/**
 * Sessions on the real shared cluster set up as a primary whose replication or archiving would hurt
 * it: an inactive replication slot that keeps WAL without a bound or a failing archiver (none of
 * the session's WAL could be recycled), or commits that wait for a synchronous standby that is gone
 * (every write would hang). Each is refused before anything changes.
 */
class ReplicationRefusalTest {
  private static final String SLOT = "pgknob_gone_standby";

  @TempDir Path runs;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @AfterEach
  void dropTheSlot() throws Exception {
    sql(
        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
            + SLOT
            + "'");
    sql("ALTER SYSTEM RESET max_slot_wal_keep_size");
    sql("ALTER SYSTEM RESET synchronous_standby_names");
    reloadUntil("synchronous_standby_names", "");
    SharedPostgres.resetSettings(); // and a restart: archive_mode needs one
  }

  @Test
  // Without the check the session hangs on its first commit, in a socket read an interrupt does
  // not end: the test's own thread lets it fail instead of holding the suite.
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void commitsWaitingForAStandbyThatIsGoneStopTheSessionBeforeAnyChange() throws Exception {
    sql("ALTER SYSTEM SET synchronous_standby_names = 'gone_standby'");
    reloadUntil("synchronous_standby_names", "gone_standby");
    String before = SharedPostgres.alterSystemSettings();
    assertEquals(ExitCodes.ERROR, tune(false));
    String text = err.toString();
    assertTrue(
        text.startsWith(
                "pgknob: the server's commits wait for a synchronous standby"
                    + " (synchronous_standby_names = 'gone_standby'), and no standby is connected")
            && text.contains("ALTER SYSTEM RESET synchronous_standby_names")
            && text.contains("nothing was changed"),
        () -> text + out);
    assertEquals(1, text.strip().lines().count(), text);
    assertEquals(before, SharedPostgres.alterSystemSettings(), "no setting changed");
    err.getBuffer().setLength(0);

    // The TPROC-C commands write too: refused the same way, not left waiting.
    assertEquals(ExitCodes.ERROR, pgknob(List.of("tprocc", "build", "--warehouses", "1")));
    assertTrue(
        err.toString().startsWith("pgknob: the server's commits wait for a synchronous standby"),
        err::toString);
    err.getBuffer().setLength(0);
    assertEquals(ExitCodes.ERROR, pgknob(List.of("tprocc", "run", "--duration", "2s")));
    assertTrue(
        err.toString().startsWith("pgknob: the server's commits wait for a synchronous standby"),
        err::toString);
  }

  @Test
  void anInactiveSlotWithoutABoundStopsTheSessionBeforeAnyChange() throws Exception {
    sql("SELECT pg_create_physical_replication_slot('" + SLOT + "', true)");
    String before = SharedPostgres.alterSystemSettings();
    assertEquals(ExitCodes.ERROR, tune(false));
    String text = err.toString();
    assertTrue(
        text.startsWith("pgknob: the server has an inactive replication slot that keeps WAL")
            && text.contains("'" + SLOT + "' (physical, ")
            && text.contains("max_slot_wal_keep_size = -1")
            && text.contains("pg_drop_replication_slot")
            && text.contains("nothing was changed"),
        () -> text + out);
    assertEquals(1, text.strip().lines().count(), text);
    assertEquals(before, SharedPostgres.alterSystemSettings());
    assertEquals(0, SharedPostgres.tproccDatabases(), "no TPROC-C database was built");
  }

  @Test
  void aSlotBoundedByMaxSlotWalKeepSizeLetsTheSessionGoOn() throws Exception {
    sql("SELECT pg_create_physical_replication_slot('" + SLOT + "', true)");
    sql("ALTER SYSTEM SET max_slot_wal_keep_size = '2GB'");
    sql("SELECT pg_reload_conf()");
    assertEquals(0, tune(true), err::toString);
    assertTrue(out.toString().contains("plan: 16 trials"), out::toString);
  }

  private int tune(boolean dryRun) {
    List<String> args =
        new ArrayList<>(
            List.of("tune", "--budget", "16", "--warehouses", "1", "--out", runs.toString()));
    if (dryRun) {
      args.add("--dry-run");
    }
    return pgknob(args);
  }

  private int pgknob(List<String> command) {
    List<String> args = new ArrayList<>(command);
    args.addAll(SharedPostgres.targetArguments());
    return Cli.run(out, err, args);
  }

  private static void sql(String statement) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute(statement);
    }
  }

  @Test
  void failingWalArchivingStopsTheSessionBeforeAnyChange() throws Exception {
    sql("ALTER SYSTEM SET archive_mode = on");
    sql("ALTER SYSTEM SET archive_command = 'false'");
    SharedPostgres.cluster().restart();
    sql("CREATE TABLE archive_probe AS SELECT 1 AS x"); // WAL for the switch to close a segment
    sql("DROP TABLE archive_probe");
    sql("SELECT pg_switch_wal()");
    for (int i = 0; i < 200 && failedArchives() == 0; i++) {
      Thread.sleep(50);
    }
    assertTrue(failedArchives() > 0, "the archiver tried and failed");
    String before = SharedPostgres.alterSystemSettings();
    assertEquals(ExitCodes.ERROR, tune(false));
    String text = err.toString();
    assertTrue(
        text.startsWith("pgknob: the server's WAL archiving is failing (segment 0000")
            && text.contains("the WAL pgknob's workload writes would pile up on the server's disk")
            && text.contains("fix the archive_command")
            && text.contains("nothing was changed"),
        () -> text + out);
    assertEquals(1, text.strip().lines().count(), text);
    assertEquals(before, SharedPostgres.alterSystemSettings(), "no setting changed");
  }

  private static long failedArchives() throws Exception {
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs =
            conn.createStatement().executeQuery("SELECT failed_count FROM pg_stat_archiver")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Reloads the configuration and waits until a new connection sees {@code name} = value. */
  private static void reloadUntil(String name, String value) throws Exception {
    sql("SELECT pg_reload_conf()");
    for (int i = 0; i < 100; i++) {
      try (Connection conn = SharedPostgres.connect();
          ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
        rs.next();
        if (rs.getString(1).equals(value)) {
          return;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(name + " never became '" + value + "' after a reload");
  }
}
