package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/**
 * A new session or apply on a server with a session's unrestored restore file (as a kill -9 leaves
 * it) is refused, naming the file and pgknob restore, unless --force (issue 14, item 6).
 */
class UnrestoredFilesTest {
  @TempDir Path dir;

  @AfterEach
  void putBack() throws Exception {
    run(new StringWriter(), "restore", dir.resolve("session").toString());
    run(new StringWriter(), "restore");
    SharedPostgres.resetSettings();
  }

  @Test
  void aNewSessionOrApplyIsRefusedUntilTheOldFileIsRestoredOrForced() throws Exception {
    // A session that changed work_mem and was killed: its restore file stays in 'applied'.
    ManagedCluster killed =
        ManagedCluster.open(
            SharedPostgres.cluster().clusterDir(), SharedPostgres.cluster().binaries(), 0);
    Path sessionFile = Files.createDirectories(dir.resolve("session")).resolve("restore.json");
    killed.useRestoreFile(sessionFile);
    killed.configure(Map.of("work_mem", "5MB"));

    StringWriter err = new StringWriter();
    assertEquals(1, run(err, "apply", "--set", "random_page_cost=1.1"));
    assertTrue(err.toString().contains("recorded in " + sessionFile), err.toString());
    assertTrue(err.toString().contains("run: pgknob restore " + sessionFile), err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());
    assertEquals("4", RemoteServerTest.show("random_page_cost"), "nothing changed");

    err = new StringWriter();
    assertEquals(1, run(err, "tune", "--budget", "16", "--out", dir.resolve("runs").toString()));
    assertTrue(err.toString().contains("recorded in " + sessionFile), err.toString());
    try (var runs = Files.list(dir.resolve("runs"))) {
      assertEquals(0, runs.count(), "the refused session left no folder");
    }

    err = new StringWriter();
    assertEquals(0, run(err, "apply", "--force", "--set", "random_page_cost=1.1"), err::toString);
    assertTrue(err.toString().contains("--force"), err.toString());
    assertEquals(0, run(new StringWriter(), "restore"));

    assertEquals(0, run(new StringWriter(), "restore", sessionFile.getParent().toString()));
    assertEquals("4MB", RemoteServerTest.show("work_mem"));
    err = new StringWriter();
    assertEquals(0, run(err, "apply", "--set", "random_page_cost=1.1"), err::toString);
    assertFalse(err.toString().contains("never put back"), err.toString());
  }

  @Test
  void aFirstChangeThatFailedAndWasRolledBackBlocksNoLaterSessionOrApply() throws Exception {
    StringWriter err = new StringWriter();
    // Unstartable: the change is rolled back, and apply's restore file holds nothing applied.
    assertEquals(1, run(err, "apply", "--set", "shared_buffers=4TB"));
    RestoreFile left =
        RestoreFile.read(RestoreFile.defaultPath(SharedPostgres.cluster().identity()));
    assertFalse(left.isRestored(), "the failed apply's file is not marked restored");
    assertTrue(left.nothingToPutBack(), left.toString());

    // What a new session checks before its first change (its own file is elsewhere).
    assertTrue(
        UnrestoredFiles.find(
                SharedPostgres.cluster().identity(), dir.resolve("next-session/restore.json"))
            .isEmpty(),
        "a rolled-back apply does not block a session");
    err = new StringWriter();
    assertEquals(0, run(err, "apply", "--set", "random_page_cost=1.1"), err::toString);
    assertFalse(err.toString().contains("never put back"), err.toString());
    assertEquals("1.1", RemoteServerTest.show("random_page_cost"));
  }

  private static int run(StringWriter err, String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--cluster-dir";
    all[args.length + 1] = SharedPostgres.cluster().clusterDir().toString();
    return Cli.run(new StringWriter(), err, all);
  }
}
