package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/** Settings pgknob never changes are refused before anything is recorded (issue 14, item 1). */
class ProtectedSettingsTest {
  @TempDir Path runDir;

  @AfterEach
  void putBack() throws Exception {
    SharedPostgres.resetSettings();
  }

  @Test
  void everyProtectedSettingIsRefusedAndNothingIsRecorded() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    Path restore = runDir.resolve(RestoreFile.FILE_NAME);
    cluster.useRestoreFile(restore);
    Map<String, String> tries =
        Map.ofEntries(
            Map.entry("data_directory", "/srv/elsewhere"),
            Map.entry("config_file", "/srv/elsewhere/postgresql.conf"),
            Map.entry("hba_file", "/srv/pg_hba.conf"),
            Map.entry("ident_file", "/srv/pg_ident.conf"),
            Map.entry("external_pid_file", "/srv/pid"),
            Map.entry("port", "5999"),
            Map.entry("listen_addresses", "*"),
            Map.entry("unix_socket_directories", "/tmp"),
            Map.entry("unix_socket_permissions", "0777"),
            Map.entry("shared_preload_libraries", "pg_stat_statements"),
            Map.entry("session_preload_libraries", "nonexistent"),
            Map.entry("archive_command", "rm -rf /"),
            Map.entry("ssl", "on"),
            Map.entry("ssl_cert_file", "/nonexistent.crt"),
            Map.entry("Data_Directory", "/srv/x"));
    for (Map.Entry<String, String> e : tries.entrySet()) {
      SettingRejectedException ex =
          assertThrows(
              SettingRejectedException.class,
              () -> cluster.configure(Map.of(e.getKey(), e.getValue())),
              e.getKey());
      assertEquals(SettingRejectedException.Reason.INVALID, ex.reason());
      assertTrue(
          ex.getMessage().startsWith("pgknob never changes " + e.getKey().toLowerCase() + ": "),
          ex.getMessage());
      assertFalse(Files.exists(restore), "nothing recorded for " + e.getKey());
    }
    // A refused setting beside an allowed one refuses both: nothing changes.
    assertThrows(
        SettingRejectedException.class,
        () -> cluster.configure(Map.of("work_mem", "7MB", "data_directory", "/srv/elsewhere")));
    assertFalse(Files.exists(restore));
    assertEquals("4MB", RemoteServerTest.show("work_mem"));
  }

  @Test
  void applyOfDataDirectoryFailsInOneLineAndLaterApplyAndRestoreStillWork() throws Exception {
    StringWriter err = new StringWriter();
    assertEquals(1, run(err, "apply", "--set", "data_directory=/srv/elsewhere"));
    assertTrue(err.toString().contains("pgknob never changes data_directory"), err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());

    assertEquals(0, run(new StringWriter(), "apply", "--set", "work_mem=8MB"));
    assertEquals("8MB", RemoteServerTest.show("work_mem"));
    assertEquals(1, run(new StringWriter(), "apply", "--set", "config_file=/x"));
    assertEquals(0, run(new StringWriter(), "restore"));
    assertEquals("4MB", RemoteServerTest.show("work_mem"));
  }

  private int run(StringWriter err, String... args) {
    ManagedCluster cluster = SharedPostgres.cluster();
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--cluster-dir";
    all[args.length + 1] = cluster.clusterDir().toString();
    return Cli.run(new StringWriter(), err, all);
  }
}
