package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.report.BestConfig;
import org.pgknob.report.ConfExporter;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/**
 * {@code apply --from} on the real shared cluster: an export applied comes back as the same
 * settings, the export is a postgresql.conf PostgreSQL itself reads, and bad files change nothing.
 */
class ApplyFromTest {
  private static final Map<String, String> PICK =
      Map.of("shared_buffers", "256MB", "work_mem", "16MB", "random_page_cost", "1.1");

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @AfterEach
  void putBack() throws Exception {
    run(true, "restore");
    SharedPostgres.resetSettings();
  }

  /**
   * A durability value needs the opt-in tune asks for: apply set fsync=off from a file without a
   * word, and left the server so.
   */
  @Test
  void aDurabilityValueIsRefusedWithoutItsOptInAndChangesNothing() throws Exception {
    Path unsafe = conf("unsafe.conf", "work_mem = '32MB'\nfsync = false\n");
    assertEquals(ExitCodes.ERROR, run(true, "apply", "--from", unsafe.toString()));
    assertEquals(
        "pgknob: not applied: fsync=false (a crash or power loss may corrupt the cluster; needs"
            + " --allow-unsafe) (give the flag it names if you accept that risk, or leave the"
            + " setting out; nothing was changed)\n",
        err.toString());
    assertEquals("on", show("fsync"));
    assertEquals("4MB", show("work_mem"));
    assertEquals(
        ExitCodes.ERROR,
        run(
            true,
            "apply",
            "--set",
            "synchronous_commit=off",
            "--allow-durability-tradeoff",
            "--set",
            "fsync=off"));
    assertEquals("on", show("synchronous_commit"));

    assertEquals(
        0,
        run(true, "apply", "--set", "synchronous_commit=off", "--allow-durability-tradeoff"),
        err::toString);
    assertEquals("off", show("synchronous_commit"));
    assertEquals(
        0, run(true, "apply", "--from", unsafe.toString(), "--allow-unsafe"), err::toString);
    assertEquals("off", show("fsync"));
  }

  @Test
  void confExportRoundTripsToTheSameSettings() throws Exception {
    Path conf = write("best-restart-tps.conf", ConfExporter.Format.CONF);
    assertEquals(0, run(true, "apply", "--from", conf.toString()), err::toString);
    assertTrue(out.toString().contains("(128MB) -> 256MB  (restart)"), out::toString);
    for (Map.Entry<String, String> e : PICK.entrySet()) {
      assertEquals(e.getValue(), show(e.getKey()), e.getKey());
    }
  }

  @Test
  void jsonExportRoundTripsAndSetOverridesTheFile() throws Exception {
    Path json = write("best-restart-tps.json", ConfExporter.Format.JSON);
    assertEquals(
        0, run(true, "apply", "--from", json.toString(), "--set", "work_mem=8MB"), err::toString);
    assertEquals("256MB", show("shared_buffers"));
    assertEquals("1.1", show("random_page_cost"));
    assertEquals("8MB", show("work_mem"));
  }

  @Test
  void theExportParsesWithPostgresThroughAnInclude() throws Exception {
    Path conf = write("best.conf", ConfExporter.Format.CONF);
    ManagedCluster cluster = SharedPostgres.cluster();
    Path scratch = Files.createDirectories(dir.resolve("scratch"));
    String original = Files.readString(cluster.dataDir().resolve("postgresql.conf"));
    Files.writeString(scratch.resolve("postgresql.conf"), original + "\ninclude 'best.conf'\n");
    Files.copy(conf, scratch.resolve("best.conf"));
    // postgres -C prints values in the setting's base unit: kB for work_mem, 8kB pages for buffers.
    assertEquals("32768", postgresC(cluster, scratch, "shared_buffers"));
    assertEquals("16384", postgresC(cluster, scratch, "work_mem"));
    assertEquals("1.1", postgresC(cluster, scratch, "random_page_cost"));
  }

  @Test
  void aWalTheDiskCannotHoldIsAppliedWithAWarningThatNamesTheLimit() throws Exception {
    Path conf = conf("big-wal.conf", "max_wal_size = '100TB'\n");
    assertEquals(0, run(true, "apply", "--from", conf.toString()), err::toString);
    String text = err.toString();
    assertTrue(
        text.startsWith("pgknob: warning: the WAL it may keep, 100TB (max_wal_size")
            && text.contains("exceeds the disk limit")
            && text.contains(SharedPostgres.cluster().dataDir().toRealPath().toString())
            && text.contains("a full WAL disk stops the server. Lower max_wal_size"),
        text);
    assertEquals("100TB", show("max_wal_size"));
    err.getBuffer().setLength(0);

    // The setting's own unit (MB) and any case of its name, as PostgreSQL takes them.
    assertEquals(0, run(true, "apply", "--set", "MAX_WAL_SIZE=104857600"), err::toString);
    assertTrue(err.toString().contains("the WAL it may keep, 100TB"), err::toString);
    err.getBuffer().setLength(0);

    assertEquals(0, run(true, "apply", "--set", "max_wal_size=2GB"), err::toString);
    assertEquals("", err.toString());
    assertEquals("2GB", show("max_wal_size"));
  }

  @Test
  void badFilesGiveOneLineAndChangeNothing() throws Exception {
    Path unknown = conf("unknown.conf", "work_mem = '32MB'\nno_such_setting = 1\n");
    assertEquals(ExitCodes.ERROR, run(true, "apply", "--from", unknown.toString()));
    assertOneLine("unknown setting 'no_such_setting'");

    Path range = conf("range.conf", "work_mem = '32MB'\nrandom_page_cost = -3\n");
    assertEquals(ExitCodes.ERROR, run(true, "apply", "--from", range.toString()));
    assertOneLine("random_page_cost");

    Path restart = conf("restart.conf", "work_mem = '32MB'\nshared_buffers = '256MB'\n");
    assertEquals(ExitCodes.ERROR, run(false, "apply", "--from", restart.toString()));
    assertOneLine("no restart command was given");

    Path broken = conf("broken.conf", "work_mem = '32MB\n");
    assertEquals(ExitCodes.ERROR, run(true, "apply", "--from", broken.toString()));
    assertOneLine("broken.conf line 1: unterminated quoted value");

    assertEquals(
        ExitCodes.ERROR, run(true, "apply", "--from", dir.resolve("none.conf").toString()));
    assertOneLine("no such file");

    assertEquals(ExitCodes.ERROR, run(true, "apply"));
    assertOneLine("nothing to apply");

    assertEquals("4MB", show("work_mem"));
    assertEquals("128MB", show("shared_buffers"));
    assertFalse(out.toString().contains("->"), out::toString);
  }

  private Path write(String name, ConfExporter.Format format) throws Exception {
    List<BestConfig.Setting> settings = new ArrayList<>();
    Map<String, String> ordered = new LinkedHashMap<>(PICK);
    ordered.forEach(
        (k, v) ->
            settings.add(
                new BestConfig.Setting(
                    k, v, "", k.equals("shared_buffers") ? "restart" : "reload", "")));
    BestConfig best = new BestConfig("2026-12-01T06-26-26", "restart/tps", "18.1", "", settings);
    return conf(name, ConfExporter.write(best, format));
  }

  private Path conf(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  private void assertOneLine(String expected) {
    String text = err.toString();
    assertTrue(text.startsWith("pgknob: ") && text.contains(expected), text);
    assertEquals(1, text.strip().lines().count(), text);
    err.getBuffer().setLength(0);
  }

  /** postgres -C NAME -D DIR, as the server's user: the value PostgreSQL reads from DIR's files. */
  private static String postgresC(ManagedCluster cluster, Path dataDir, String name)
      throws Exception {
    List<String> command = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      // PostgreSQL refuses root; the scratch folder must be readable by the server's user.
      for (Path p : List.of(dataDir.getParent(), dataDir)) {
        Files.setPosixFilePermissions(
            p, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"));
    }
    command.addAll(
        List.of(
            cluster.binaries().bin("postgres").toString(), "-C", name, "-D", dataDir.toString()));
    Process p =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.DISCARD) // LOG lines about missing includes
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(0, p.waitFor(), output);
    return output;
  }

  private int run(boolean withRestartCommand, String... args) {
    ManagedCluster cluster = SharedPostgres.cluster();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--target",
            cluster.jdbcUrl("postgres"),
            "--user",
            "postgres",
            "--password-file",
            cluster.passwordFile().toString()));
    if (withRestartCommand) {
      all.addAll(List.of("--restart-command", cluster.restartShellCommand()));
    }
    return Cli.run(out, err, all);
  }

  private static String show(String name) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
