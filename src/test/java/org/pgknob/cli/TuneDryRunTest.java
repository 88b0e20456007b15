package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.TargetIdentity;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/** tune --dry-run on the real shared cluster: the plan is printed and nothing is touched. */
class TuneDryRunTest {
  @TempDir Path runs;

  @Test
  void dryRunPrintsThePlanSpaceAndLimitAndLeavesTheServerUntouched() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    String url = cluster.jdbcUrl("postgres");
    Path restore =
        RestoreFile.defaultPath(
            new TargetIdentity(TargetIdentity.REMOTE, null, url, "postgres", null, 0));
    Files.deleteIfExists(restore);
    String autoConfBefore = SharedPostgres.alterSystemSettings();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args =
        new ArrayList<>(
            List.of(
                "tune",
                "--dry-run",
                "--budget",
                "16",
                "--out",
                runs.toString(),
                "--target",
                url,
                "--user",
                "postgres",
                "--password-file",
                cluster.passwordFile().toString()));
    assertEquals(0, Cli.run(out, err, args), err::toString);
    String text = out.toString();
    assertTrue(
        text.matches(
            "(?s).*plan: 16 trials of about .*, ending about \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC.*"),
        text);
    assertTrue(text.contains("  baseline      3 trials"), text);
    assertTrue(text.contains("memory limit: "), text);
    assertTrue(text.contains("space: ") && text.contains("shared_buffers"), text);
    assertFalse(Files.exists(restore), "no restore file: nothing was changed");
    try (var files = Files.list(runs)) {
      assertEquals(0, files.count(), "no session folder");
    }
    assertEquals(autoConfBefore, SharedPostgres.alterSystemSettings());
    assertEquals(0, SharedPostgres.tproccDatabases(), "no TPROC-C database was built");
  }
}
