package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * The GRANTs are what the session may change: a reload-only session without --allow-unsafe
   * proposes no setting that needs a restart and never fsync or full_page_writes, while the
   * PGTune-style configuration it validates changes the parallel-worker settings on 8 cores (those
   * whose defaults it does not keep), which the search space does not hold. Before, the whole space
   * file was asked for and PGTune-style's own settings were not.
   */
  @Test
  void aReloadOnlySessionIsAskedForWhatItMayChangeAndNothingElse() throws Exception {
    String text = refusedTune("--tracks", "reload", "--cpus", "8");

    assertTrue(text.contains("GRANT ALTER SYSTEM ON PARAMETER work_mem TO"), text);
    assertTrue(
        text.contains("GRANT ALTER SYSTEM ON PARAMETER max_parallel_maintenance_workers TO"), text);
    assertTrue(
        text.contains("GRANT ALTER SYSTEM ON PARAMETER max_parallel_workers_per_gather TO"), text);
    for (String notChanged :
        List.of(
            "shared_buffers",
            "wal_buffers",
            "huge_pages",
            "io_method",
            "max_worker_processes",
            "fsync",
            "full_page_writes")) {
      assertFalse(text.contains("ON PARAMETER " + notChanged + " "), notChanged + ": " + text);
    }
    assertTrue(text.contains("GRANT pg_checkpoint TO \"pgknob_plain\""), text);
  }

  /** target says what a session would ask for: pg_checkpoint and CREATEDB among the rest. */
  @Test
  void targetNamesEveryPrivilegeASessionNeedsThatTheRoleLacks() throws Exception {
    refused("apply", "--set", "work_mem=8MB"); // creates the role, checks nothing changed
    StringWriter out = new StringWriter();
    int exit =
        Cli.run(
            out,
            new StringWriter(),
            "target",
            "--target",
            SharedPostgres.cluster().jdbcUrl("postgres"),
            "--user",
            "pgknob_plain",
            "--password-file",
            passwordFile().toString());

    assertEquals(0, exit, out.toString());
    assertTrue(
        out.toString()
            .contains(
                " settings, may NOT reload, lacks pg_read_all_settings and pg_checkpoint, may NOT"
                    + " create databases\n"),
        out.toString());
  }

  /** A comparison changes its files' settings alone: those, not the search space, are asked for. */
  @Test
  void aComparisonIsAskedForItsFilesSettings() throws Exception {
    Path conf = dir.resolve("a.conf");
    Files.writeString(conf, "work_mem = 8MB\nrandom_page_cost = 1.5\n");

    String text = refused("compare", "--config", conf.toString(), "--rounds", "2");

    assertTrue(text.contains("GRANT ALTER SYSTEM ON PARAMETER work_mem TO"), text);
    assertTrue(text.contains("GRANT ALTER SYSTEM ON PARAMETER random_page_cost TO"), text);
    assertFalse(text.contains("ON PARAMETER shared_buffers "), text);
    assertFalse(text.contains("ON PARAMETER max_wal_size "), text);
  }

  private String autoConfBefore;

  private String refusedTune(String... options) throws Exception {
    return refused(tuneArguments(options).toArray(String[]::new));
  }

  private List<String> tuneArguments(String... options) {
    List<String> args = new ArrayList<>(List.of("tune"));
    args.addAll(List.of(options));
    args.addAll(List.of("--out", dir.resolve("runs").toString()));
    return args.stream().toList();
  }

  /** {@code args} as the plain role, refused: its message, after checking nothing changed. */
  private String refused(String... args) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      st.execute("CREATE ROLE pgknob_plain LOGIN PASSWORD 'plain-pw-14'");
    }
    autoConfBefore = autoConf();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--target",
            SharedPostgres.cluster().jdbcUrl("postgres"),
            "--user",
            "pgknob_plain",
            "--password-file",
            passwordFile().toString()));
    StringWriter err = new StringWriter();
    int exit = Cli.run(new StringWriter(), err, all);
    assertEquals(1, exit, err.toString());
    assertTrue(err.toString().contains("privilege(s)"), err.toString());
    assertEquals(autoConfBefore, autoConf());
    return err.toString();
  }

  private Path passwordFile() throws Exception {
    Path password = dir.resolve("pw");
    if (!Files.exists(password)) {
      Files.writeString(password, "plain-pw-14\n");
      Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    }
    return password;
  }

  private static String autoConf() throws Exception {
    return Files.readString(SharedPostgres.cluster().dataDir().resolve(AutoConf.FILE_NAME));
  }
}
