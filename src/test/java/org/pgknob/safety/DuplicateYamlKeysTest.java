package org.pgknob.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.space.SearchSpaceFile;

/**
 * A key given twice in a user's YAML file: the parser would keep the last one and silently drop the
 * first (a second {@code relations:} replacing the first's rules), so the file is refused, naming
 * the key and its line.
 */
class DuplicateYamlKeysTest {
  @TempDir Path dir;

  @Test
  void aSecondRelationsSectionInARulesFileIsRefused() throws Exception {
    Path file =
        write(
            """
            memory:
              limit_fraction: 0.90
              terms:
                shared_buffers: [shared_buffers]
            relations:
              - min_wal_size <= max_wal_size
            durability: {}
            relations:
              - checkpoint_completion_target <= checkpoint_completion_target
            """);
    PgknobException e = assertThrows(PgknobException.class, () -> SafetyRulesFile.load(file));
    assertEquals(
        file
            + ": key 'relations' appears twice in the same mapping at line 8 (keep one"
            + " 'relations' and merge what the other held into it)",
        e.oneLine());
  }

  @Test
  void aKnobListedTwiceInASpaceFileIsRefused() throws Exception {
    Path file =
        write(
            """
            knobs:
              work_mem: {type: integer, unit: MB, min: 1, max: 64}
              random_page_cost: {type: real, min: 1.0, max: 4.0}
              work_mem: {type: integer, unit: MB, min: 4, max: 8}
            """);
    PgknobException e = assertThrows(PgknobException.class, () -> SearchSpaceFile.load(file));
    assertEquals(
        file
            + ": key 'work_mem' appears twice in the same mapping at line 4 (keep one"
            + " 'work_mem' and merge what the other held into it)",
        e.oneLine());
  }

  @Test
  void aFieldGivenTwiceInsideAKnobIsRefused() throws Exception {
    Path file = write("knobs:\n  work_mem: {type: integer, min: 1, max: 64, max: 8}\n");
    PgknobException e = assertThrows(PgknobException.class, () -> SearchSpaceFile.load(file));
    assertEquals(
        file
            + ": key 'max' appears twice in the same mapping at line 2 (keep one 'max'"
            + " and merge what the other held into it)",
        e.oneLine());
  }

  private Path write(String yaml) throws Exception {
    return Files.writeString(dir.resolve("file-" + System.nanoTime() + ".yaml"), yaml);
  }
}
