package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/**
 * tune as a role that is not a superuser: every privilege it lacks is listed as the statement to
 * run, before any trial, and nothing is changed (issue 14, item 7).
 */
class NonSuperuserTuneTest {
  @TempDir Path dir;

  @AfterEach
  void dropRole() throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute(
          "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgknob_plain')"
              + " THEN DROP OWNED BY pgknob_plain; DROP ROLE pgknob_plain; END IF; END $$");
    }
  }

  @Test
  void theMissingGrantsAndCreatedbArePrintedAsStatementsBeforeAnyTrial() throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute("CREATE ROLE pgknob_plain LOGIN PASSWORD 'plain-pw-14'");
      st.execute("GRANT ALTER SYSTEM ON PARAMETER work_mem TO pgknob_plain");
    }
    Path password = dir.resolve("pw");
    Files.writeString(password, "plain-pw-14\n");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    String autoConfBefore =
        Files.readString(SharedPostgres.cluster().dataDir().resolve(AutoConf.FILE_NAME));

    StringWriter err = new StringWriter();
    int exit =
        Cli.run(
            new StringWriter(),
            err,
            "tune",
            "--target",
            SharedPostgres.cluster().jdbcUrl("postgres"),
            "--user",
            "pgknob_plain",
            "--password-file",
            password.toString(),
            "--budget",
            "16",
            "--out",
            dir.resolve("runs").toString());

    String text = err.toString();
    assertEquals(1, exit, text);
    assertTrue(text.contains("role pgknob_plain is not a superuser and lacks"), text);
    assertTrue(
        text.contains("GRANT ALTER SYSTEM ON PARAMETER shared_buffers TO \"pgknob_plain\""), text);
    assertTrue(!text.contains("ON PARAMETER work_mem "), "work_mem was granted: " + text);
    assertTrue(
        text.contains("GRANT EXECUTE ON FUNCTION pg_catalog.pg_reload_conf() TO \"pgknob_plain\""),
        text);
    assertTrue(text.contains("GRANT pg_read_all_settings TO \"pgknob_plain\""), text);
    assertTrue(text.contains("ALTER ROLE \"pgknob_plain\" CREATEDB"), text);
    assertTrue(!text.contains("--ram"), "privileges first, not a question about RAM: " + text);
    try (var runs = Files.list(dir.resolve("runs"))) {
      assertEquals(0, runs.count(), "no session folder, no restore file");
    }
    assertEquals(
        autoConfBefore,
        Files.readString(SharedPostgres.cluster().dataDir().resolve(AutoConf.FILE_NAME)));
  }
}
