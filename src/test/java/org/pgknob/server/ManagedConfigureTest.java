package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.SharedPostgres;

class ManagedConfigureTest {
  @TempDir Path runDir;
  ManagedCluster cluster;

  @BeforeEach
  void useRunDir() {
    cluster = SharedPostgres.cluster();
    cluster.useRestoreFile(runDir.resolve(RestoreFile.FILE_NAME));
  }

  @AfterEach
  void putBack() throws Exception {
    cluster.restoreOriginals();
    SharedPostgres.resetSettings();
  }

  @Test
  void appliesAndRestoresAReloadSetting() throws Exception {
    String before = show("work_mem");
    ApplyReport report = cluster.configure(Map.of("work_mem", "12MB"));
    assertEquals("12MB", show("work_mem"));
    assertFalse(report.restarted());
    assertEquals(1, report.changes().size());
    RestoreFile file = RestoreFile.read(cluster.restoreFile());
    assertEquals(RestoreFile.APPLIED, file.state());
    assertEquals("4096", file.snapshot().original("work_mem").orElseThrow().setting());

    ApplyReport restored = cluster.restoreOriginals();
    assertEquals(before, show("work_mem"));
    assertEquals(1, restored.changes().size());
    assertTrue(RestoreFile.read(cluster.restoreFile()).isRestored());
    assertFalse(
        Files.readString(cluster.dataDir().resolve("postgresql.auto.conf")).contains("work_mem"));
  }

  @Test
  void aSettingBackAtItsDerivedDefaultFollowsTheSettingsItDerivesFrom() throws Exception {
    // wal_buffers = -1 is 1/32 of shared_buffers: once pgknob has touched it, a later
    // configuration without it must restart it back to -1, not expect its old figure.
    cluster.configure(Map.of("wal_buffers", "1MB"));
    assertEquals("1MB", show("wal_buffers"));
    ApplyReport report = cluster.configure(Map.of("shared_buffers", "512MB"));
    assertTrue(report.restarted());
    assertEquals("512MB", show("shared_buffers"));
    assertEquals("16MB", show("wal_buffers"));
    cluster.restoreOriginals();
    assertEquals("128MB", show("shared_buffers"));
    assertEquals("4MB", show("wal_buffers"));
  }

  @Test
  void restartsForASettingThatNeedsItAndRestoresIt() throws Exception {
    long pidBefore = cluster.postmasterPid().orElseThrow();
    ApplyReport report = cluster.configure(Map.of("shared_buffers", "256MB"));
    assertTrue(report.restarted());
    assertEquals("256MB", show("shared_buffers"));
    assertTrue(cluster.postmasterPid().orElseThrow() != pidBefore);

    ApplyReport restored = cluster.restoreOriginals();
    assertTrue(restored.restarted());
    assertEquals("128MB", show("shared_buffers"));
  }

  @Test
  void aSettingLeftOutOfTheNextConfigurationGoesBackToItsOriginal() throws Exception {
    String originalWorkMem = show("work_mem");
    cluster.configure(Map.of("work_mem", "12MB", "random_page_cost", "1.5"));
    cluster.configure(Map.of("random_page_cost", "2"));
    assertEquals(originalWorkMem, show("work_mem"));
    assertEquals("2", show("random_page_cost"));
    assertEquals(Map.of("random_page_cost", "2"), cluster.appliedSettings());
  }

  @Test
  void rollsBackASettingThatStopsTheServerFromStarting() throws Exception {
    cluster.configure(Map.of("work_mem", "8MB"));
    // Within max_val (8TB) but far beyond this host's memory: the server cannot map it.
    SettingRejectedException e =
        assertThrows(
            SettingRejectedException.class,
            () -> cluster.configure(Map.of("shared_buffers", "4TB", "work_mem", "16MB")));
    assertEquals(SettingRejectedException.Reason.DID_NOT_START, e.reason());
    assertTrue(e.serverMessage().contains("shared memory"), e.serverMessage());
    assertEquals("128MB", show("shared_buffers"));
    assertEquals("8MB", show("work_mem"), "the last configuration that worked is back");
    assertEquals(Map.of("work_mem", "8MB"), cluster.appliedSettings());
  }

  @Test
  void refusesAnOutOfRangeValueNamingTheRangeAndChangesNothing() throws Exception {
    SettingRejectedException e =
        assertThrows(
            SettingRejectedException.class,
            () -> cluster.configure(Map.of("shared_buffers", "100TB")));
    assertEquals(SettingRejectedException.Reason.INVALID, e.reason());
    assertTrue(e.getMessage().contains("shared_buffers must be between"), e.getMessage());
    assertTrue(e.getMessage().contains("(8.0TB)"), e.getMessage());
    assertFalse(Files.exists(cluster.restoreFile()), "nothing recorded, nothing changed");
  }

  @Test
  void passesAValueWithAQuoteSafelyToTheServer() throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("application_name", "x'; ALTER SYSTEM SET work_mem = '1GB");
    cluster.configure(settings);
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs =
            conn.createStatement()
                .executeQuery("SELECT setting FROM pg_settings WHERE name = 'work_mem'")) {
      rs.next();
      assertEquals("4096", rs.getString(1));
    }
    String autoConf = Files.readString(cluster.dataDir().resolve("postgresql.auto.conf"));
    assertEquals(
        "x'; ALTER SYSTEM SET work_mem = '1GB", AutoConf.parse(autoConf).get("application_name"));
  }

  @Test
  void afterTheShutdownHooksRestoreNoLaterChangeReachesTheServer() throws Exception {
    // the shutdown hook's target object, as a session holds its own: the shared one stays usable
    ManagedCluster stopping = ManagedCluster.openExisting(cluster.clusterDir(), 0);
    stopping.useRestoreFile(runDir.resolve("stopping-" + RestoreFile.FILE_NAME));
    String before = show("work_mem");
    stopping.configure(Map.of("work_mem", "12MB"));
    assertEquals("12MB", show("work_mem"));

    assertEquals(1, stopping.restoreOriginalsForGood().changes().size());
    assertEquals(before, show("work_mem"));
    // the session's thread runs on while the hooks do: its next trial's change is refused
    org.pgknob.PgknobException refused =
        assertThrows(
            org.pgknob.PgknobException.class, () -> stopping.configure(Map.of("work_mem", "24MB")));
    assertTrue(refused.getMessage().startsWith("pgknob is stopping"), refused.getMessage());
    assertEquals(before, show("work_mem"));
    assertTrue(RestoreFile.read(stopping.restoreFile()).isRestored());
    // a plain restore (the end of a session) leaves later changes allowed
    cluster.configure(Map.of("work_mem", "12MB"));
    cluster.restoreOriginals();
    cluster.configure(Map.of("work_mem", "16MB"));
    assertEquals("16MB", show("work_mem"));
  }

  private static String show(String name) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
