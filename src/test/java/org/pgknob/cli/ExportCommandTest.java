package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.report.ConfExporter;
import org.pgknob.report.ConfFile;
import org.pgknob.session.SessionExport;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionFolderFixtures;
import org.pgknob.testing.Cli;

class ExportCommandTest {
  @TempDir Path runs;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Cli.run(out, err, args);
  }

  @Test
  void exportsEachFormatToStandardOutput() {
    SessionFolder folder = SessionFolderFixtures.finished(runs);
    String dir = folder.dir().toString();
    assertEquals(0, run("export", dir, "--track", "restart", "--objective", "tps"));
    assertEquals(ConfExporter.conf(SessionExport.best(folder, "restart/tps")), out.toString());
    assertEquals("1GB", ConfFile.parse("stdout", out.toString()).get("shared_buffers"));

    out.getBuffer().setLength(0);
    assertEquals(0, run("export", dir, "--track", "reload", "--format", "alter-system"));
    assertTrue(out.toString().contains("ALTER SYSTEM SET max_wal_size = '4GB';"), out.toString());
  }

  @Test
  void writesToAFileWithOut() throws Exception {
    SessionFolder folder = SessionFolderFixtures.finished(runs);
    Path file = runs.resolve("best.json");
    assertEquals(
        0, run("export", folder.dir().toString(), "--format", "json", "--out", file.toString()));
    assertTrue(Files.readString(file).contains("\"shared_buffers\" : \"1GB\""));
  }

  @Test
  void aDashForOutIsStandardOutputNotAFileNamedDash() {
    SessionFolder folder = SessionFolderFixtures.finished(runs);
    assertEquals(0, run("export", folder.dir().toString(), "--out", "-"));
    assertEquals(ConfExporter.conf(SessionExport.best(folder, "restart/tps")), out.toString());
    assertFalse(Files.exists(Path.of("-")), "a file named '-' in the current folder");
  }

  @Test
  void badInputIsOneLineAndExitCodeOne() throws Exception {
    SessionFolder folder = SessionFolderFixtures.finished(runs);
    assertEquals(1, run("export", folder.dir().toString(), "--track", "fast"));
    assertEquals(
        "pgknob: unknown track 'fast' (use --track reload, restart or pgtune)\n", err.toString());
    err.getBuffer().setLength(0);
    Path notSession = Files.createDirectory(runs.resolve("other"));
    assertEquals(1, run("export", notSession.toString()));
    assertTrue(err.toString().contains("is not a pgknob session"), err.toString());
    err.getBuffer().setLength(0);
    assertEquals(1, run("export", folder.dir().toString(), "--format", "yaml"));
    assertTrue(err.toString().startsWith("pgknob: unknown export format 'yaml'"));
  }
}
