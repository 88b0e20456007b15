package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/** The informed initial design: anchors first, then points around them. */
class BayesAnchorsTest {
  private final SearchSpace space = TestSpaces.mixed();
  private final List<Configuration> anchors = BayesAnchoredContractTest.ANCHORS;
  private final OptimizerSpec spec =
      OptimizerSpec.of(space, Objective.maximize("tps")).withSeed(4).withAnchors(anchors);

  private List<Configuration> drive(Bayes bayes, int rounds) {
    List<Configuration> out = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      Configuration c = bayes.suggest();
      out.add(c);
      bayes.observe(c, Outcome.ok("tps", TestSpaces.tps(space, c)));
    }
    return out;
  }

  @Test
  void theFirstSuggestionsAreTheAnchorsNotYetObserved() {
    Bayes bayes = new Bayes(spec, new org.pgknob.optimize.model.GpFitter());
    bayes.observe(bayes.anchors().get(0), Outcome.ok("tps", 1000));
    List<Configuration> first = drive(bayes, 2);
    assertEquals(bayes.anchors().get(1), first.get(0));
    assertTrue(!anchors.contains(first.get(1)) && !bayes.anchors().contains(first.get(1)));
  }

  @Test
  void anchorsAreTakenAsTheSpaceHoldsThem() {
    // shared_buffers above the range, a knob the space lacks, io_workers inactive under sync
    Configuration wide =
        Configuration.of(
            Map.of(
                "shared_buffers",
                1_000_000L,
                "work_mem",
                64L,
                "io_method",
                "sync",
                "io_workers",
                9L));
    Bayes bayes =
        new Bayes(spec.withAnchors(List.of(wide)), new org.pgknob.optimize.model.GpFitter());
    Configuration c = bayes.suggest();
    assertEquals(16384L, c.get("shared_buffers"));
    assertEquals("sync", c.get("io_method"));
    assertTrue(!c.has("work_mem") && !c.has("io_workers"), c.toString());
  }

  @Test
  void theDesignAfterTheAnchorsStaysNearThem() {
    Bayes bayes = new Bayes(spec, new org.pgknob.optimize.model.GpFitter());
    UnitCubeEncoder encoder = new UnitCubeEncoder(space);
    List<Configuration> design =
        drive(bayes, bayes.initialPoints()).subList(2, bayes.initialPoints());
    assertTrue(design.size() >= 2, "too short a design to check: " + design.size());
    for (Configuration c : design) {
      double[] x = encoder.encode(c);
      boolean near = false;
      for (Configuration a : bayes.anchors()) {
        double[] ax = encoder.encode(a);
        // shared_buffers (log) and random_page_cost are the first two unit dimensions
        near |=
            Math.abs(x[0] - ax[0]) <= InitialDesign.LOCAL_SIDE / 2 + 1e-3
                && Math.abs(x[1] - ax[1]) <= InitialDesign.LOCAL_SIDE / 2 + 1e-3;
      }
      assertTrue(near, c + " is far from every anchor " + bayes.anchors());
    }
  }

  @Test
  void withoutAnchorsTheDesignSpreadsOverTheSpace() {
    Bayes bayes = new Bayes(spec.withAnchors(List.of()), new org.pgknob.optimize.model.GpFitter());
    UnitCubeEncoder encoder = new UnitCubeEncoder(space);
    double lo = 1;
    double hi = 0;
    for (Configuration c : drive(bayes, bayes.initialPoints())) {
      double u = encoder.encode(c)[0];
      lo = Math.min(lo, u);
      hi = Math.max(hi, u);
    }
    assertTrue(hi - lo > 0.6, "shared_buffers spans only " + lo + " to " + hi);
  }

  @Test
  void theSameSeedAndAnchorsGiveTheSameSuggestions() {
    List<Configuration> a = drive(new Bayes(spec, new org.pgknob.optimize.model.GpFitter()), 8);
    List<Configuration> b = drive(new Bayes(spec, new org.pgknob.optimize.model.GpFitter()), 8);
    assertEquals(a, b);
  }
}
