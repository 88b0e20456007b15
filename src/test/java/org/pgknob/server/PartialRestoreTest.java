package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;

/**
 * A restore that cannot put one setting back puts back the others, says which one and how, keeps
 * the file for a later restore to finish, and blocks no later change (issue 14, item 3).
 */
class PartialRestoreTest {
  @TempDir Path runDir;

  @AfterEach
  void putBack() throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute(
          "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgknob_tuner')"
              + " THEN DROP OWNED BY pgknob_tuner; DROP ROLE pgknob_tuner; END IF; END $$");
    }
    SharedPostgres.resetSettings();
  }

  @Test
  void aSettingTheServerWillNotTakeBackLeavesTheOthersRestoredAndTheFileToFinish()
      throws Exception {
    sql(
        "CREATE ROLE pgknob_tuner LOGIN PASSWORD 'tuner-pw-14'",
        "GRANT ALTER SYSTEM ON PARAMETER work_mem, random_page_cost TO pgknob_tuner",
        "GRANT EXECUTE ON FUNCTION pg_catalog.pg_reload_conf() TO pgknob_tuner",
        "GRANT pg_read_all_settings TO pgknob_tuner");
    Path restore = runDir.resolve(RestoreFile.FILE_NAME);
    Map<String, String> trial = new LinkedHashMap<>();
    trial.put("work_mem", "9MB");
    trial.put("random_page_cost", "1.1");
    tuner(restore).configure(trial);
    // The role loses a privilege between the change and the restore.
    sql("REVOKE ALTER SYSTEM ON PARAMETER random_page_cost FROM pgknob_tuner");

    PgknobException e =
        assertThrows(PgknobException.class, () -> tuner(restore).restoreOriginals());
    assertTrue(
        e.getMessage().contains("put back 1 of 2 settings")
            && e.getMessage().contains("but not random_page_cost (permission denied"),
        e.getMessage());
    assertTrue(e.fix().contains("ALTER SYSTEM RESET \"random_page_cost\""), e.fix());
    assertTrue(e.fix().contains("pgknob restore " + restore), e.fix());
    assertEquals("4MB", RemoteServerTest.show("work_mem"), "the other one is back");
    assertEquals("1.1", RemoteServerTest.show("random_page_cost"));
    RestoreFile file = RestoreFile.read(restore);
    assertEquals(RestoreFile.APPLIED, file.state());
    assertEquals(List.of("random_page_cost"), new ArrayList<>(file.stuck().keySet()));

    // Not blocked: a later change of another setting goes ahead.
    tuner(restore).configure(Map.of("work_mem", "6MB"));
    assertEquals("6MB", RemoteServerTest.show("work_mem"));

    // Once the cause is fixed, a later restore finishes.
    sql("GRANT ALTER SYSTEM ON PARAMETER random_page_cost TO pgknob_tuner");
    tuner(restore).restoreOriginals();
    assertTrue(RestoreFile.read(restore).isRestored());
    assertTrue(RestoreFile.read(restore).stuck().isEmpty());
    assertEquals("4", RemoteServerTest.show("random_page_cost"));
    assertEquals("4MB", RemoteServerTest.show("work_mem"));
  }

  @Test
  void aRecordedSettingAlreadyAtItsOriginalNeedsNothingEvenIfTheServerRefusesIt() throws Exception {
    // An older pgknob recorded data_directory as an original before the server refused it.
    ManagedCluster cluster = SharedPostgres.cluster();
    Path restore = runDir.resolve(RestoreFile.FILE_NAME);
    cluster.useRestoreFile(restore);
    cluster.configure(Map.of("work_mem", "8MB"));
    RestoreFile file = RestoreFile.read(restore);
    OriginalSetting dataDirectory =
        new OriginalSetting(
            "data_directory",
            cluster.dataDir().toString(),
            null,
            "string",
            "postmaster",
            "override",
            false,
            null,
            false);
    file.withState(
            RestoreFile.CHANGING,
            file.snapshot().with(List.of(dataDirectory)),
            file.applied(),
            Map.of("data_directory", "/srv/elsewhere"))
        .write(restore);

    ManagedCluster again = ManagedCluster.open(cluster.clusterDir(), cluster.binaries(), 0);
    again.useRestoreFile(restore); // a later 'pgknob restore'
    again.restoreOriginals();
    assertTrue(RestoreFile.read(restore).isRestored());
    assertEquals("4MB", RemoteServerTest.show("work_mem"));
    cluster.restoreOriginals(); // the shared handle's own record, for the next test
  }

  private RemoteServer tuner(Path restore) throws Exception {
    Path password = runDir.resolve("tuner-password");
    if (!Files.exists(password)) {
      Files.writeString(password, "tuner-pw-14\n");
      Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    }
    RemoteServer s =
        RemoteServer.open(
            new RemoteServer.Options(
                SharedPostgres.cluster().jdbcUrl("postgres"),
                "pgknob_tuner",
                password,
                null,
                Duration.ofSeconds(60)));
    s.useRestoreFile(restore);
    return s;
  }

  private static void sql(String... statements) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      for (String statement : statements) {
        st.execute(statement);
      }
    }
  }
}
