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
    return List.of(branin(), hartmann6(), styblinskiTang4In12(), categoricalWithInfeasibleRegion());
  }

  /** Branin on [-5, 10] x [0, 15]; minimum 0.397887 at three points. */
  static TestFunction branin() {
    SearchSpace space = new SearchSpace("branin", List.of(real("x1", -5, 10), real("x2", 0, 15)));
    return new Simple("branin-2d", space, 0.397887, 0.1) {
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
    return new Simple("hartmann-6d", new SearchSpace("hartmann6", knobs), -3.32237, 0.02) {
      @Override
      public double value(Configuration c) {
        double sum = 0;
        for (int i = 0; i < 4; i++) {
          double inner = 0;
          for (int j = 0; j < 6; j++) {
            double d = TestFunction.real(c, "x" + j) - HARTMANN_P[i][j];
            inner += HARTMANN_A[i][j] * d * d;
          }
          sum += HARTMANN_ALPHA[i] * Math.exp(-inner);
        }
        return -sum;
      }
    };
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
    return new Simple("styblinski-4-of-12d", new SearchSpace("st12", knobs), 4 * -39.16617, 0.5) {
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
    return new Simple("categorical-infeasible-3d", space, 0.1125, 0.02) {
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
    private final double noiseSd;

    Simple(String name, SearchSpace space, double minimum, double noiseSd) {
      this.name = name;
      this.space = space;
      this.minimum = minimum;
      this.noiseSd = noiseSd;
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

    @Override
    public double noiseSd() {
      return noiseSd;
    }
  }
}
