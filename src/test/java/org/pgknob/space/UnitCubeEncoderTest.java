package org.pgknob.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UnitCubeEncoderTest {
  private static final String YAML =
      """
      knobs:
        bgwriter_lru_maxpages: {type: integer, min: 0, max: 1000}
        shared_buffers: {type: integer, unit: MB, min: 32, max: 32768, scale: log}
        random_page_cost: {type: real, min: 1.0, max: 6.0}
        autovacuum_vacuum_scale_factor: {type: real, min: 0.001, max: 0.5, scale: log}
        io_method: {type: enum, values: [worker, sync]}
        io_workers: {type: integer, min: 1, max: 32, scale: log, when: {io_method: worker}}
        jit: {type: bool}
      """;

  private final SearchSpace space = SearchSpaceFile.parse("test.yaml", YAML, 18);
  private final UnitCubeEncoder encoder = new UnitCubeEncoder(space);

  @Test
  void everyKnobTypeSurvivesEncodeAndDecode() {
    Configuration config =
        Configuration.of(
            Map.of(
                "bgwriter_lru_maxpages",
                417L,
                "shared_buffers",
                3000L,
                "random_page_cost",
                1.37,
                "autovacuum_vacuum_scale_factor",
                0.0123,
                "io_method",
                "worker",
                "io_workers",
                7L,
                "jit",
                "off"));
    Configuration back = encoder.decode(encoder.encode(config));
    assertEquals(417L, back.get("bgwriter_lru_maxpages"));
    assertEquals(3000L, back.get("shared_buffers"));
    assertEquals(1.37, (Double) back.get("random_page_cost"), 1e-9);
    assertEquals(0.0123, (Double) back.get("autovacuum_vacuum_scale_factor"), 1e-12);
    assertEquals("worker", back.get("io_method"));
    assertEquals(7L, back.get("io_workers"));
    assertEquals("off", back.get("jit"));
    assertEquals(config, back);
  }

  @Test
  void aConditionalKnobDisappearsWhenItsConditionFails() {
    Configuration config =
        Configuration.of(Map.of("io_method", "sync", "io_workers", 7L, "jit", "on"));
    Configuration back = encoder.decode(encoder.encode(config));
    assertEquals("sync", back.get("io_method"));
    assertFalse(back.has("io_workers"));
  }

  @Test
  void logScalesPutTheGeometricMeanInTheMiddle() {
    Knob sb = space.knob("shared_buffers");
    assertEquals(0.5, UnitCubeEncoder.toUnit(sb, Math.sqrt(32.0 * 32768)), 1e-9);
  }

  @Test
  void randomPointsDecodeToAdmissibleConfigurationsThatEncodeBackToThemselves() {
    Random random = new Random(42);
    for (int i = 0; i < 200; i++) {
      double[] x = new double[encoder.dimensions()];
      for (int d = 0; d < x.length; d++) {
        x[d] = random.nextDouble();
      }
      Configuration c = encoder.decode(x);
      assertTrue(space.admits(c), c.toString());
      assertEquals(c, encoder.decode(encoder.encode(c)));
    }
  }
}
