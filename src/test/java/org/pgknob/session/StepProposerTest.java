package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;

class StepProposerTest {
  private static final SearchSpace SPACE =
      new SearchSpace(
          "test",
          List.of(
              new Knob(
                  "shared_buffers",
                  KnobType.INTEGER,
                  64,
                  8192,
                  Scale.LOG,
                  "MB",
                  null,
                  null,
                  null,
                  128L,
                  null),
              new Knob(
                  "wal_buffers",
                  KnobType.INTEGER,
                  1,
                  64,
                  Scale.LOG,
                  "MB",
                  null,
                  null,
                  null,
                  -1L,
                  null),
              new Knob(
                  "jit",
                  KnobType.BOOL,
                  0,
                  0,
                  Scale.LINEAR,
                  "",
                  List.of("on", "off"),
                  null,
                  null,
                  "on",
                  null)));

  @Test
  void dropsKnobsSetToTheirDefaultButKeepsValuesAClampedDefaultWouldHide() {
    Configuration proposed =
        Configuration.of(Map.of("shared_buffers", 128L, "wal_buffers", 1L, "jit", "off"));
    assertEquals(
        Map.of("wal_buffers", 1L, "jit", "off"),
        StepProposer.withoutDefaults(proposed, SPACE).values());
    Configuration allDefaults = Configuration.of(Map.of("shared_buffers", 128L, "jit", "on"));
    assertEquals(Map.of(), StepProposer.withoutDefaults(allDefaults, SPACE).values());
  }
}
