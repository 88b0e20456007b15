package org.pgknob.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/**
 * The benchmark's functions restricted to their relevant inputs: what the optimizer benchmark's
 * bound (bayes told which inputs matter) is measured on, so a wrong input list would make the bound
 * meaningless.
 */
class TestFunctionsTest {
  private static TestFunction relevant(String parent) {
    return TestFunctions.relevantOnly().stream()
        .filter(f -> f.name().equals("relevant-" + parent))
        .findFirst()
        .orElseThrow();
  }

  private static TestFunction full(String name) {
    return TestFunctions.all().stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void eachRestrictedFunctionAgreesWithItsParentWhateverTheInertInputsAre() {
    Random random = new Random(5);
    for (TestFunction restricted : TestFunctions.relevantOnly()) {
      TestFunction parent = restricted.noiseReference();
      assertEquals("relevant-" + parent.name(), restricted.name());
      UnitCubeEncoder encoder = new UnitCubeEncoder(parent.space());
      for (int i = 0; i < 50; i++) {
        double[] x = new double[encoder.dimensions()];
        for (int d = 0; d < x.length; d++) {
          x[d] = random.nextDouble();
        }
        Configuration c = encoder.decode(x);
        Map<String, Object> kept = new LinkedHashMap<>();
        for (String name : restricted.space().names()) {
          kept.put(name, c.get(name));
        }
        double expected = parent.value(c);
        double actual = restricted.value(Configuration.of(kept));
        assertEquals(Double.isNaN(expected), Double.isNaN(actual), restricted.name());
        if (!Double.isNaN(expected)) {
          assertEquals(expected, actual, 1e-12, restricted.name() + " at " + c);
        }
      }
    }
  }

  @Test
  void theRestrictedFunctionsReachTheirParentsMinimumAndKeepOnlyTheRelevantInputs() {
    TestFunction levy = relevant("levy-4-of-20d");
    assertEquals(4, levy.space().size());
    Map<String, Object> ones = new LinkedHashMap<>();
    levy.space().names().forEach(n -> ones.put(n, 1.0));
    assertEquals(0, levy.value(Configuration.of(ones)), 1e-12);

    TestFunction ackley = relevant("ackley-5-of-15d");
    assertEquals(5, ackley.space().size());
    Map<String, Object> origin = new LinkedHashMap<>();
    ackley.space().names().forEach(n -> origin.put(n, 0.0));
    assertEquals(0, ackley.value(Configuration.of(origin)), 1e-12);

    TestFunction mixed = relevant("mixed-conditional-17k");
    assertEquals(List.of("x0", "mode", "x1", "method", "workers", "x2"), mixed.space().names());
    Configuration best =
        Configuration.of(
            Map.of(
                "x0",
                0.65,
                "x1",
                0.55 - 1e-9,
                "x2",
                0.3,
                "mode",
                "b",
                "method",
                "worker",
                "workers",
                8L));
    // the optimum is on the failing region's edge (x0 + x1 = 1.2), so a hair inside it
    assertEquals(mixed.minimum(), mixed.value(best), 1e-6);

    TestFunction hartmann = relevant("hartmann-6-of-20d");
    SearchSpace space = hartmann.space();
    assertEquals(6, space.size());
    // every input of the restricted space moves the function: none of them is an inert one
    Map<String, Object> centre = new LinkedHashMap<>();
    space.names().forEach(n -> centre.put(n, 0.3));
    double atCentre = hartmann.value(Configuration.of(centre));
    for (String name : space.names()) {
      Map<String, Object> moved = new LinkedHashMap<>(centre);
      moved.put(name, 0.9);
      double change = Math.abs(hartmann.value(Configuration.of(moved)) - atCentre);
      assertTrue(change > 1e-6, name + " changes the function by " + change);
    }
  }

  @Test
  void aRestrictedFunctionSeesTheNoiseOfItsParent() {
    for (String name : List.of("levy-4-of-20d", "ackley-5-of-15d", "mixed-conditional-17k")) {
      TestFunction restricted = relevant(name);
      assertEquals(name, restricted.noiseReference().name());
      assertEquals(
          OptimizerBenchmark.range(full(name)),
          OptimizerBenchmark.range(restricted.noiseReference()),
          1e-12);
    }
  }

  @Test
  void theEdgeFunctionsHaveTheirMinimumNearAWallWhateverTheInertInputsAre() {
    TestFunction levy = TestFunctions.levyEdge();
    TestFunction ackley = TestFunctions.ackleyEdge();
    Map<String, Object> levyBest = new LinkedHashMap<>();
    for (String name : levy.space().names()) {
      // the relevant inputs at 8, 0.9 of [-10, 10]; the inert ones anywhere
      levyBest.put(name, levy.relevantInputs().contains(name) ? 8.0 : -3.0);
    }
    assertEquals(0, levy.value(Configuration.of(levyBest)), 1e-12);
    Map<String, Object> ackleyBest = new LinkedHashMap<>();
    for (String name : ackley.space().names()) {
      // the relevant inputs at 0, 1/15 of [-1, 14]
      ackleyBest.put(name, ackley.relevantInputs().contains(name) ? 0.0 : 13.0);
    }
    assertEquals(0, ackley.value(Configuration.of(ackleyBest)), 1e-12);
    assertEquals(-1, ackley.space().knob(ackley.relevantInputs().get(0)).min());
  }
}
