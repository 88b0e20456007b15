package org.pgknob.bench;

import java.util.ArrayList;
import java.util.List;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;

/** The standard test functions of the optimizer benchmark. */
final class TestFunctions {
  private TestFunctions() {}

  static Knob real(String name, double min, double max) {
    return new Knob(
        name, KnobType.REAL, min, max, Scale.LINEAR, "", null, null, null, (min + max) / 2, "");
  }

  static List<TestFunction> all() {
    return List.of(
        branin(),
        hartmann6(),
        styblinskiTang4In12(),
        categoricalWithInfeasibleRegion(),
        hartmann6Among(20),
        hartmann6Among(30),
        levy4In20(),
        ackley5In15(),
        mixedWithConditionAndFailures(),
        mixedWithConditionAndFailures(7));
  }

  /**
   * The hard functions of the widened suite restricted to their relevant inputs, the others held at
   * their defaults (which the functions ignore): the regret bayes reaches when it is told which
   * inputs matter, a bound on what any way of finding them can bring. Run only when named ({@code
   * --only relevant-}); random search's regret does not depend on the inert inputs, so the parent's
   * random column is the reference.
   */
  static List<TestFunction> relevantOnly() {
    return List.of(
        relevantOnly(hartmann6Among(20)),
        relevantOnly(levy4In20()),
        relevantOnly(ackley5In15()),
        relevantOnly(mixedWithConditionAndFailures()));
  }

  /**
   * The functions the benchmark runs only when named ({@code --only relevant-}, {@code --only
   * edge-}): the bound of {@link #relevantOnly()} and the checks of {@link #edge()}.
   */
  static List<TestFunction> onlyWhenNamed() {
    List<TestFunction> out = new ArrayList<>(relevantOnly());
    out.addAll(edge());
    return out;
  }

  /**
   * Levy and Ackley with their optima moved near a wall of each relevant input: a check that the
   * model's bowl-shaped prior mean (which is lower at the walls when the observations say so) does
   * not just favour optima in the middle of the space, where the suite's functions have theirs.
   */
  static List<TestFunction> edge() {
    return List.of(levyEdge(), ackleyEdge());
  }

  /** Levy 4 of 20 with its optimum at 0.9 of each relevant input's range (x = 8 of [-10, 10]). */
  static TestFunction levyEdge() {
    TestFunction levy = levy4In20();
    return new Simple("edge-levy-4-of-20d", levy.space(), 0, levy.relevantInputs()) {
      @Override
      public double value(Configuration c) {
        java.util.Map<String, Object> moved = new java.util.LinkedHashMap<>();
        for (String n : levy.space().names()) {
          moved.put(n, TestFunction.real(c, n) - 7);
        }
        return levy.value(Configuration.of(moved));
      }
    };
  }

  /** Ackley 5 of 15 on [-1, 14]: the optimum at 1/15 of each relevant input's range. */
  static TestFunction ackleyEdge() {
    TestFunction ackley = ackley5In15();
    SearchSpace space = new SearchSpace("ackley5-in-15-edge", reals(15, -1, 14));
    return new Simple("edge-ackley-5-of-15d", space, 0, ackley.relevantInputs()) {
      @Override
      public double value(Configuration c) {
        return ackley.value(c);
      }
    };
  }

  private static List<String> names(int[] positions) {
    List<String> out = new ArrayList<>();
    for (int p : positions) {
      out.add("x" + p);
    }
    return out;
  }

  /** {@code parent} searched over its relevant inputs alone, named relevant-(parent's name). */
  static TestFunction relevantOnly(TestFunction parent) {
    SearchSpace all = parent.space();
    java.util.Map<String, Object> defaults = new java.util.LinkedHashMap<>();
    for (Knob k : all.knobs()) {
      defaults.put(k.name(), k.defaultValue());
    }
    Configuration inert = Configuration.of(defaults);
    SearchSpace space = all.subset(parent.relevantInputs());
    return new Simple("relevant-" + parent.name(), space, parent.minimum()) {
      @Override
      public double value(Configuration c) {
        return parent.value(c.over(inert));
      }

      @Override
      public TestFunction noiseReference() {
        return parent;
      }
    };
  }

  static Knob integer(String name, long min, long max, Scale scale) {
    return new Knob(
        name, KnobType.INTEGER, min, max, scale, "", null, null, null, (min + max) / 2, "");
  }

  static Knob enumKnob(String name, List<String> choices) {
    return new Knob(
        name, KnobType.ENUM, 0, 0, Scale.LINEAR, "", choices, null, null, choices.get(0), "");
  }

  static Knob bool(String name) {
    return new Knob(
        name, KnobType.BOOL, 0, 0, Scale.LINEAR, "", List.of("on", "off"), null, null, "on", "");
  }

  /**
   * Where the relevant inputs sit among {@code dims}: a fixed shuffle, so that a method that
   * favours the first inputs, or neighbouring ones, gains nothing.
   */
  static int[] shuffledPositions(int relevant, int dims, long seed) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < dims; i++) {
      all.add(i);
    }
    java.util.Collections.shuffle(all, new java.util.Random(seed));
    int[] out = new int[relevant];
    for (int i = 0; i < relevant; i++) {
      out[i] = all.get(i);
    }
    return out;
  }

  private static List<Knob> reals(int dims, double min, double max) {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < dims; i++) {
      knobs.add(real("x" + i, min, max));
    }
    return knobs;
  }

  /** Hartmann 6-D hidden among {@code dims - 6} inputs that do nothing, at shuffled positions. */
  static TestFunction hartmann6Among(int dims) {
    int[] at = shuffledPositions(6, dims, dims);
    SearchSpace space = new SearchSpace("hartmann6-in-" + dims, reals(dims, 0, 1));
    return new Simple("hartmann-6-of-" + dims + "d", space, -3.32237, names(at)) {
      @Override
      public double value(Configuration c) {
        double[] x = new double[6];
        for (int j = 0; j < 6; j++) {
          x[j] = TestFunction.real(c, "x" + at[j]);
        }
        return hartmann6(x);
      }
    };
  }

  /**
   * Levy in 4 of 20 inputs on [-10, 10] (minimum 0 at 1 in each relevant input): a bowl with
   * ripples, the optimum off the centre of the space.
   */
  static TestFunction levy4In20() {
    int[] at = shuffledPositions(4, 20, 4);
    SearchSpace space = new SearchSpace("levy4-in-20", reals(20, -10, 10));
    return new Simple("levy-4-of-20d", space, 0, names(at)) {
      @Override
      public double value(Configuration c) {
        double[] w = new double[4];
        for (int j = 0; j < 4; j++) {
          w[j] = 1 + (TestFunction.real(c, "x" + at[j]) - 1) / 4;
        }
        double s = Math.pow(Math.sin(Math.PI * w[0]), 2);
        for (int j = 0; j < 3; j++) {
          s += (w[j] - 1) * (w[j] - 1) * (1 + 10 * Math.pow(Math.sin(Math.PI * w[j] + 1), 2));
        }
        double last = w[3] - 1;
        return s + last * last * (1 + Math.pow(Math.sin(2 * Math.PI * w[3]), 2));
      }
    };
  }

  /**
   * Ackley in 5 of 15 inputs on [-5, 10] (as in the TuRBO and SAASBO papers; the optimum 0 at the
   * origin, not at the centre of the space, which is every knob's default): many shallow local
   * minima on a funnel.
   */
  static TestFunction ackley5In15() {
    int[] at = shuffledPositions(5, 15, 5);
    SearchSpace space = new SearchSpace("ackley5-in-15", reals(15, -5, 10));
    return new Simple("ackley-5-of-15d", space, 0, names(at)) {
      @Override
      public double value(Configuration c) {
        double squares = 0;
        double cosines = 0;
        for (int j = 0; j < 5; j++) {
          double x = TestFunction.real(c, "x" + at[j]);
          squares += x * x;
          cosines += Math.cos(2 * Math.PI * x);
        }
        return -20 * Math.exp(-0.2 * Math.sqrt(squares / 5)) - Math.exp(cosines / 5) + 20 + Math.E;
      }
    };
  }

  /**
   * A PostgreSQL-like mixed space of 17 knobs (29 unit-cube dimensions): three relevant reals, a
   * relevant four-valued enum, an irrelevant three-valued enum, a conditional pair (a method enum
   * and a worker count that only matters when the method is {@code worker}), and ten irrelevant
   * knobs of every type (reals, log-scaled integers, booleans, enums). Trials fail where x0 + x1 >
   * 1.2, which cuts off the unconstrained optimum (x0 0.7, x1 0.6). Minimum 0.05: x0 0.65, x1 0.55,
   * x2 0.3, mode b, method worker with 8 workers.
   */
  static TestFunction mixedWithConditionAndFailures() {
    return mixedWithConditionAndFailures(0);
  }

  /**
   * The mixed function above with {@code more} irrelevant knobs besides (cycling through a real, a
   * log integer, a boolean, a four-valued enum): at 7, 24 knobs in 42 unit-cube dimensions, the
   * categorical benchmark at 20 knobs and more.
   */
  static TestFunction mixedWithConditionAndFailures(int more) {
    List<Knob> knobs = new ArrayList<>();
    knobs.add(real("x0", 0, 1));
    knobs.add(enumKnob("style", List.of("p", "q", "r")));
    knobs.add(real("noise_r0", 0, 10));
    knobs.add(integer("noise_i0", 1, 65536, Scale.LOG));
    knobs.add(enumKnob("mode", List.of("a", "b", "c", "d")));
    knobs.add(bool("noise_b0"));
    knobs.add(real("x1", 0, 1));
    knobs.add(enumKnob("method", List.of("sync", "worker")));
    knobs.add(
        new Knob(
            "workers",
            KnobType.INTEGER,
            1,
            32,
            Scale.LINEAR,
            "",
            null,
            null,
            new org.pgknob.space.Condition("method", List.of("worker")),
            3L,
            ""));
    knobs.add(real("noise_r1", -5, 5));
    knobs.add(enumKnob("noise_e0", List.of("u", "v", "w")));
    knobs.add(integer("noise_i1", 0, 100, Scale.LINEAR));
    knobs.add(real("x2", 0, 1));
    knobs.add(bool("noise_b1"));
    knobs.add(real("noise_r2", 0, 1));
    knobs.add(enumKnob("noise_e1", List.of("u", "v", "w")));
    knobs.add(real("noise_r3", 0, 100));
    for (int i = 0; i < more; i++) {
      knobs.add(
          switch (i % 4) {
            case 0 -> real("extra_r" + i, 0, 1);
            case 1 -> integer("extra_i" + i, 1, 1 << 20, Scale.LOG);
            case 2 -> bool("extra_b" + i);
            default -> enumKnob("extra_e" + i, List.of("k", "l", "m", "n"));
          });
    }
    SearchSpace space = new SearchSpace("mixed-" + knobs.size(), knobs);
    List<String> relevant = List.of("x0", "x1", "x2", "mode", "method", "workers");
    return new Simple("mixed-conditional-" + knobs.size() + "k", space, 0.05, relevant) {
      @Override
      public double value(Configuration c) {
        double x0 = TestFunction.real(c, "x0");
        double x1 = TestFunction.real(c, "x1");
        double x2 = TestFunction.real(c, "x2");
        if (x0 + x1 > 1.2) {
          return Double.NaN;
        }
        double mode =
            switch (c.get("mode").toString()) {
              case "a" -> 1.0;
              case "b" -> 0.0;
              case "c" -> 2.0;
              default -> 1.5;
            };
        double method = 0.5;
        if ("worker".equals(c.get("method"))) {
          double octaves = (Math.log(((Number) c.get("workers")).doubleValue()) / Math.log(2) - 3);
          method = 0.5 * octaves * octaves / 4;
        }
        double bowl = (x0 - 0.7) * (x0 - 0.7) + (x1 - 0.6) * (x1 - 0.6) + (x2 - 0.3) * (x2 - 0.3);
        return 10 * bowl + mode + method;
      }
    };
  }

  /** Branin on [-5, 10] x [0, 15]; minimum 0.397887 at three points. */
  static TestFunction branin() {
    SearchSpace space = new SearchSpace("branin", List.of(real("x1", -5, 10), real("x2", 0, 15)));
    return new Simple("branin-2d", space, 0.397887) {
      @Override
      public double value(Configuration c) {
        double x1 = TestFunction.real(c, "x1");
        double x2 = TestFunction.real(c, "x2");
        double b = 5.1 / (4 * Math.PI * Math.PI);
        double t = x2 - b * x1 * x1 + 5 / Math.PI * x1 - 6;
        return t * t + 10 * (1 - 1 / (8 * Math.PI)) * Math.cos(x1) + 10;
      }
    };
  }

  private static final double[] HARTMANN_ALPHA = {1.0, 1.2, 3.0, 3.2};
  private static final double[][] HARTMANN_A = {
    {10, 3, 17, 3.5, 1.7, 8},
    {0.05, 10, 17, 0.1, 8, 14},
    {3, 3.5, 1.7, 10, 17, 8},
    {17, 8, 0.05, 10, 0.1, 14}
  };
  private static final double[][] HARTMANN_P = {
    {0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
    {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
    {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
    {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}
  };

  /** Hartmann 6-D on [0, 1]^6; minimum -3.32237. */
  static TestFunction hartmann6() {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      knobs.add(real("x" + i, 0, 1));
    }
    return new Simple("hartmann-6d", new SearchSpace("hartmann6", knobs), -3.32237) {
      @Override
      public double value(Configuration c) {
        double[] x = new double[6];
        for (int j = 0; j < 6; j++) {
          x[j] = TestFunction.real(c, "x" + j);
        }
        return hartmann6(x);
      }
    };
  }

  static double hartmann6(double[] x) {
    double sum = 0;
    for (int i = 0; i < 4; i++) {
      double inner = 0;
      for (int j = 0; j < 6; j++) {
        double d = x[j] - HARTMANN_P[i][j];
        inner += HARTMANN_A[i][j] * d * d;
      }
      sum += HARTMANN_ALPHA[i] * Math.exp(-inner);
    }
    return -sum;
  }

  /**
   * Styblinski-Tang in 4 dimensions on [-5, 5], hidden among 8 more inputs that do nothing; minimum
   * 4 x -39.16617 at x = -2.903534 in each relevant input.
   */
  static TestFunction styblinskiTang4In12() {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      knobs.add(real("x" + i, -5, 5));
    }
    return new Simple("styblinski-4-of-12d", new SearchSpace("st12", knobs), 4 * -39.16617) {
      @Override
      public double value(Configuration c) {
        double s = 0;
        // the relevant inputs are spread among the irrelevant ones
        for (int i : new int[] {1, 4, 7, 10}) {
          double x = TestFunction.real(c, "x" + i);
          s += 0.5 * (x * x * x * x - 16 * x * x + 5 * x);
        }
        return s;
      }
    };
  }

  /**
   * Two reals on [0, 1] and a three-valued category that shifts the function; the trial fails where
   * x + y > 1.3, which cuts off the unconstrained optimum (0.75, 0.7). Constrained minimum:
   * category b, on the line x + y = 1.3, value 10 x 0.15^2 / 2 = 0.1125.
   */
  static TestFunction categoricalWithInfeasibleRegion() {
    Knob mode =
        new Knob(
            "mode",
            KnobType.ENUM,
            0,
            0,
            Scale.LINEAR,
            "",
            List.of("a", "b", "c"),
            null,
            null,
            "a",
            "");
    SearchSpace space = new SearchSpace("cat", List.of(real("x", 0, 1), real("y", 0, 1), mode));
    return new Simple("categorical-infeasible-3d", space, 0.1125) {
      @Override
      public double value(Configuration c) {
        double x = TestFunction.real(c, "x");
        double y = TestFunction.real(c, "y");
        if (x + y > 1.3) {
          return Double.NaN;
        }
        double offset =
            switch (c.get("mode").toString()) {
              case "a" -> 1.0;
              case "b" -> 0.0;
              default -> 2.0;
            };
        return 10 * ((x - 0.75) * (x - 0.75) + (y - 0.7) * (y - 0.7)) + offset;
      }
    };
  }

  private abstract static class Simple implements TestFunction {
    private final String name;
    private final SearchSpace space;
    private final double minimum;
    private final List<String> relevant;

    Simple(String name, SearchSpace space, double minimum) {
      this(name, space, minimum, space.names());
    }

    Simple(String name, SearchSpace space, double minimum, List<String> relevant) {
      this.name = name;
      this.space = space;
      this.minimum = minimum;
      this.relevant = relevant;
    }

    @Override
    public List<String> relevantInputs() {
      return relevant;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public SearchSpace space() {
      return space;
    }

    @Override
    public double minimum() {
      return minimum;
    }
  }
}
