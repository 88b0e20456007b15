package org.pgknob.optimize;

import java.util.List;
import org.pgknob.space.Condition;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/** Small spaces and objectives for optimizer tests. */
public final class TestSpaces {
  private TestSpaces() {}

  static Knob integer(String name, long min, long max, Scale scale, Long def) {
    return new Knob(name, KnobType.INTEGER, min, max, scale, "", null, null, null, def, "");
  }

  public static Knob real(String name, double min, double max, Double def) {
    return new Knob(name, KnobType.REAL, min, max, Scale.LINEAR, "", null, null, null, def, "");
  }

  public static Knob enumKnob(String name, List<String> choices, String def) {
    return new Knob(name, KnobType.ENUM, 0, 0, Scale.LINEAR, "", choices, null, null, def, "");
  }

  static Knob bool(String name, String def) {
    return new Knob(
        name, KnobType.BOOL, 0, 0, Scale.LINEAR, "", List.of("on", "off"), null, null, def, "");
  }

  /** PostgreSQL-like: a log integer, a real, an enum, a conditional integer, a bool. */
  static SearchSpace mixed() {
    Knob ioWorkers =
        new Knob(
            "io_workers",
            KnobType.INTEGER,
            1,
            32,
            Scale.LINEAR,
            "",
            null,
            null,
            new Condition("io_method", List.of("worker")),
            3L,
            "");
    return new SearchSpace(
        "mixed",
        List.of(
            new Knob(
                "shared_buffers",
                KnobType.INTEGER,
                16,
                16384,
                Scale.LOG,
                "MB",
                null,
                null,
                null,
                128L,
                ""),
            real("random_page_cost", 1, 4, 4.0),
            enumKnob("io_method", List.of("worker", "sync", "io_uring"), "worker"),
            ioWorkers,
            bool("jit", "on")));
  }

  /** The numeric knobs of {@link #mixed()} alone: a log integer and a real. */
  static SearchSpace numeric() {
    SearchSpace mixed = mixed();
    return new SearchSpace(
        "numeric", List.of(mixed.knob("shared_buffers"), mixed.knob("random_page_cost")));
  }

  /** {@code dims} real knobs x0, x1, ... on [0, 1], each 0.5 by default. */
  static SearchSpace square(int dims) {
    List<Knob> knobs = new java.util.ArrayList<>();
    for (int i = 0; i < dims; i++) {
      knobs.add(real("x" + i, 0, 1, 0.5));
    }
    return new SearchSpace("square", knobs);
  }

  /** 3 x 2 x 3 = 18 configurations. */
  static SearchSpace discrete() {
    return new SearchSpace(
        "discrete",
        List.of(
            enumKnob("a", List.of("x", "y", "z"), "x"),
            bool("b", "on"),
            integer("c", 1, 3, Scale.LINEAR, 2L)));
  }

  /** A smooth objective on the mixed space, larger is better, with its optimum inside. */
  static double tps(SearchSpace space, Configuration c) {
    double sb =
        UnitCubeEncoder.toUnit(
            space.knob("shared_buffers"),
            ((Number) c.valueOrDefault("shared_buffers", space)).doubleValue());
    double rpc = ((Number) c.valueOrDefault("random_page_cost", space)).doubleValue();
    String io =
        space.names().contains("io_method")
            ? c.valueOrDefault("io_method", space).toString()
            : "sync";
    double v = 1000 - 600 * (sb - 0.7) * (sb - 0.7) - 40 * (rpc - 1.5) * (rpc - 1.5);
    v += io.equals("io_uring") ? 50 : io.equals("worker") ? 20 : 0;
    if (io.equals("worker")) {
      long workers = ((Number) c.valueOrDefault("io_workers", space)).longValue();
      v += 2 * Math.min(workers, 8);
    }
    return v;
  }
}
