package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The restore command apply prints finds the file of the server it changed: after apply
 * --pg-version 16 it said "pgknob restore", which reads the 18 cluster's file.
 */
class RestoreHintTest {
  private static final Path FILE = Path.of("/var/tmp/pgknob/restore/managed-cluster-16.json");

  @Test
  void aManagedClusterOfAnotherMajorIsNamedByItsPgVersion() {
    assertEquals(" --pg-version 16", ApplyCommand.restoreHint(null, null, 16, FILE));
  }

  @Test
  void theDefaultManagedClusterNeedsNothing() {
    assertEquals("", ApplyCommand.restoreHint(null, null, null, FILE));
    assertEquals("", ApplyCommand.restoreHint(null, null, 18, FILE));
  }

  @Test
  void aClusterFolderIsNamedByItsFileAndAServerByItsTarget() {
    assertEquals(" " + FILE, ApplyCommand.restoreHint(null, Path.of("/x"), 16, FILE));
    assertEquals(
        " --target 'postgresql://db/app' (or the file above)",
        ApplyCommand.restoreHint("postgresql://db/app", null, null, FILE));
  }
}
