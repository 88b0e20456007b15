package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.testing.SmallDisk;

/**
 * A session whose run folder lies on a small disk (a 200 kB tmpfs as --out) that fills up in the
 * middle of the search, as a disk shared with other files does: the session stops with one line
 * naming the file it could not write and the disk's own words, puts the server's settings back
 * although the restore file cannot record it, leaves no temporary file and no half record, and
 * {@code pgknob restore} finishes the record once there is room.
 */
class FullRunFolderDiskTest {
  @TempDir Path dir;
  private SmallDisk disk;
  private Path mount;

  @BeforeEach
  void smallDisk() throws Exception {
    disk = SmallDisk.mount(dir.resolve("runs"), "200k");
    mount = disk.path();
  }

  @AfterEach
  void unmount() throws Exception {
    if (disk != null) {
      disk.close();
    }
  }

  @Test
  void aRunFolderWhoseDiskFillsStopsTheSessionPutsTheSettingsBackAndLeavesNoHalfFile()
      throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Map<String, String> before = SessionPostgres.settings(cluster);
    Path calls = dir.resolve("calls");
    Path filler = mount.resolve("filler");
    // The fifth trial's command (a Bayesian trial, its settings applied) fills the disk.
    String command =
        "cat > /dev/null; echo x >> '"
            + calls
            + "'; if [ $(wc -l < '"
            + calls
            + "') -eq 5 ]; then cat /dev/zero > '"
            + filler
            + "' 2>/dev/null; fi; echo '{\"value\": 100}'";
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        Cli.run(
            out,
            err,
            "tune",
            "--cluster-dir",
            cluster.clusterDir().toString(),
            "--workload-cmd",
            command,
            "--budget",
            "16",
            "--tracks",
            "reload",
            "--rampup",
            "1s",
            "--duration",
            "1s",
            "--out",
            mount.toString());
    String console = out + "\n" + err;
    assertEquals(1, exit, console);
    List<String> errLines = err.toString().lines().toList();
    assertEquals(1, errLines.size(), console);
    assertTrue(
        errLines.get(0).startsWith("pgknob: cannot ")
            && errLines.get(0).contains("No space left on device")
            && errLines.get(0).contains("free space on the disk that holds " + mount)
            && !errLines.get(0).contains("restoring the original settings failed"),
        errLines.get(0));
    assertEquals(
        Set.of(),
        SessionPostgres.differences(before, SessionPostgres.settings(cluster)),
        "the server's settings are back although the disk is full");

    Path session;
    try (Stream<Path> folders = Files.list(mount)) {
      session = folders.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    try (Stream<Path> files = Files.walk(mount)) {
      assertEquals(
          List.of(),
          files.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList(),
          "temporary files a failed write left");
    }
    byte[] trials = Files.readAllBytes(session.resolve("trials.jsonl"));
    assertTrue(trials.length > 0 && trials[trials.length - 1] == '\n', "a half record");
    for (String line : new String(trials, StandardCharsets.UTF_8).lines().toList()) {
      Json.mapper().readTree(line); // every line whole
    }

    // Room again: pgknob restore records what the session could not.
    Files.delete(filler);
    Path restoreFile = session.resolve("restore.json");
    StringWriter restoreOut = new StringWriter();
    assertEquals(
        0,
        Cli.run(restoreOut, restoreOut, "restore", restoreFile.toString()),
        restoreOut.toString());
    assertEquals(
        "restored",
        Json.mapper().readTree(restoreFile.toFile()).path("state").asText(),
        restoreOut.toString());
    assertEquals(Set.of(), SessionPostgres.differences(before, SessionPostgres.settings(cluster)));
  }
}
