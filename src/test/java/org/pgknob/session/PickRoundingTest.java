package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.TestSpaces;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;

/** A pick's values as a DBA writes them, in the knobs' own units, before validation. */
class PickRoundingTest {
  private static Knob integer(String name, String unit, double max, long def) {
    return new Knob(name, KnobType.INTEGER, 1, max, Scale.LOG, unit, null, null, null, def, "");
  }

  private static final SearchSpace SPACE =
      new SearchSpace(
          "six",
          List.of(
              TestSpaces.real("random_page_cost", 1, 10, 4.0),
              TestSpaces.real("checkpoint_completion_target", 0.5, 0.99, 0.9),
              integer("effective_cache_size", "MB", 65536, 4096),
              integer("work_mem", "kB", 4194304, 4096),
              integer("wal_writer_delay", "ms", 10000, 200),
              TestSpaces.enumKnob("jit", List.of("on", "off"), "on")));

  private static final Configuration OPTIMIZERS =
      Configuration.of(
          Map.of(
              "random_page_cost",
              1.63335,
              "checkpoint_completion_target",
              0.8971,
              "effective_cache_size",
              15913L,
              "work_mem",
              124000L,
              "wal_writer_delay",
              146L,
              "jit",
              "off"));

  private static ExportRounding noHeadroom() {
    return ExportRounding.forRow(List.of(), List.of(), null, null);
  }

  @Test
  void eachValueIsWrittenAsADbaWritesItInTheKnobsOwnUnit() {
    Configuration written = PickRounding.round(OPTIMIZERS, SPACE, noHeadroom(), c -> true);

    assertEquals(
        Map.of(
            "random_page_cost", "1.6",
            "checkpoint_completion_target", "0.9",
            "effective_cache_size", "16384MB",
            "work_mem", "123904kB", // 121MB, rounded down: per-backend memory never rounds up
            "wal_writer_delay", "150ms",
            "jit", "off"),
        written.rendered(SPACE));
  }

  @Test
  void aRoundedValueOutsideTheKnobsRangeKeepsTheOptimizersFigure() {
    SearchSpace narrow =
        new SearchSpace("narrow", List.of(integer("effective_cache_size", "MB", 16000, 4096)));
    Configuration pick = Configuration.of(Map.of("effective_cache_size", 15913L));

    assertEquals(pick, PickRounding.round(pick, narrow, noHeadroom(), c -> true));
  }

  @Test
  void aRoundedPickTheSafetyRulesRefuseIsMeasuredAsTheOptimizerProposedIt() {
    Configuration written =
        PickRounding.round(OPTIMIZERS, SPACE, noHeadroom(), c -> c.get("work_mem").equals(124000L));

    assertEquals(OPTIMIZERS, written);
  }
}
