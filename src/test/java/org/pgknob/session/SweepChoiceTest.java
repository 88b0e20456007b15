package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.SearchSpaceFile;

/** The sweeps' order is the search-space file's: a knob's {@code sweep:} rank is all it takes. */
class SweepChoiceTest {
  @Test
  void sweepOrderIsTheFilesRankAndUnrankedKnobsAreNotSwept() {
    SearchSpace space =
        SearchSpaceFile.parse(
            "test.yaml",
            "knobs:\n"
                + "  work_mem: {type: integer, unit: MB, min: 1, max: 64, sweep: 2}\n"
                + "  commit_delay: {type: integer, min: 0, max: 1000}\n"
                + "  my_new_knob: {type: integer, min: 1, max: 9, sweep: 1}\n",
            18);
    assertEquals(List.of("my_new_knob", "work_mem"), SweepChoice.priority(space));
  }

  @Test
  void theBundledSpaceSweepsTheBufferCacheFirst() {
    List<String> order = SweepChoice.priority(SearchSpaceFile.loadDefault(18));
    assertEquals("shared_buffers", order.get(0));
    assertTrue(order.size() >= 10, order.toString());
  }

  @Test
  void twoKnobsWithOneRankAreRefusedNamingBoth() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () ->
                SearchSpaceFile.parse(
                    "test.yaml",
                    "knobs:\n"
                        + "  work_mem: {type: integer, min: 1, max: 64, sweep: 2}\n"
                        + "  commit_delay: {type: integer, min: 0, max: 1000, sweep: 2}\n",
                    18));
    assertTrue(
        e.getMessage().contains("work_mem and commit_delay share sweep rank 2"), e.getMessage());
  }

  @Test
  void aRankThatIsNoWholeNumberFromOneIsRefused() {
    for (String bad : List.of("0", "1.5", "first")) {
      PgknobException e =
          assertThrows(
              PgknobException.class,
              () ->
                  SearchSpaceFile.parse(
                      "test.yaml",
                      "knobs:\n  work_mem: {type: integer, min: 1, max: 64, sweep: " + bad + "}\n",
                      18));
      assertTrue(e.getMessage().contains("sweep must be a whole number from 1"), e.getMessage());
    }
  }
}
