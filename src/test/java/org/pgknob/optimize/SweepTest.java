package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.optimize.KnobSensitivity.Verdict;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;

class SweepTest {
  private final SearchSpace space = TestSpaces.mixed();

  @Test
  void spreadGridIsEvenOnTheLogScaleAndIncludesTheDefault() {
    List<Object> grid = SweepGrid.values(space.knob("shared_buffers"));
    assertEquals(List.of(16L, 64L, 128L, 256L, 1024L, 4096L, 16384L), grid);
  }

  @Test
  void gridFromTheSpaceIsUsedWithTheDefaultAdded() {
    Knob k =
        new Knob(
            "work_mem",
            KnobType.INTEGER,
            64,
            65536,
            Scale.LOG,
            "kB",
            null,
            List.of(1024L, 8192L),
            null,
            4096L,
            "");
    assertEquals(List.of(1024L, 4096L, 8192L), SweepGrid.values(k));
  }

  @Test
  void sweepsOneKnobAtATimeFromTheBaselineInPriorityOrder() {
    Sweep sweep =
        new Sweep(
            OptimizerSpec.of(space, Objective.maximize("tps")),
            new SweepPlan(List.of("jit", "random_page_cost"), 2));
    List<Configuration> points = sweep.points();
    assertEquals(Configuration.empty(), points.get(0));
    assertEquals(Configuration.of(Map.of("jit", "off")), points.get(1));
    for (Configuration c : points.subList(2, points.size())) {
      assertEquals(List.of("random_page_cost"), List.copyOf(c.values().keySet()));
    }
  }

  @Test
  void aPlanWithItsOwnValuesSweepsExactlyThoseKnobsOnThoseValuesInItsOrder() {
    Map<String, List<Object>> grids = new java.util.LinkedHashMap<>();
    grids.put("random_page_cost", List.of(1.1, 2));
    grids.put("jit", List.of("off"));
    List<Configuration> points = Sweep.points(space, SweepPlan.of(grids));
    assertEquals(
        List.of(
            Configuration.empty(),
            Configuration.of(Map.of("random_page_cost", 1.1)),
            Configuration.of(Map.of("random_page_cost", 2.0)),
            Configuration.of(Map.of("jit", "off"))),
        points);
    assertThrows(IllegalArgumentException.class, () -> SweepPlan.of(Map.of()));
  }

  @Test
  void conditionalKnobIsSweptWithItsParentActivatingIt() {
    SearchSpace sync = space.with(space.knob("io_method").withDefault("sync"));
    List<Configuration> points = Sweep.points(sync, new SweepPlan(List.of("io_workers"), 1));
    for (Configuration c : points.subList(1, points.size())) {
      assertEquals("worker", c.get("io_method"));
      assertTrue(sync.admits(c));
    }
  }

  @Test
  void skipsPointsTheKnownConstraintRefusesAndEnds() {
    OptimizerSpec spec =
        OptimizerSpec.of(space, Objective.maximize("tps"))
            .withKnownConstraint(
                c -> ((Number) c.valueOrDefault("shared_buffers", space)).longValue() <= 1024);
    Sweep sweep = new Sweep(spec, new SweepPlan(List.of("shared_buffers"), 1));
    int count = 0;
    while (!sweep.isExhausted()) {
      Configuration c = sweep.suggest();
      assertTrue(((Number) c.valueOrDefault("shared_buffers", space)).longValue() <= 1024);
      sweep.observe(c, Outcome.ok("tps", 1));
      count++;
    }
    assertEquals(5, count, "baseline + 16, 64, 256, 1024");
    assertThrows(IllegalStateException.class, sweep::suggest);
  }

  @Test
  void unknownPriorityKnobIsAClearError() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () -> Sweep.points(space, new SweepPlan(List.of("shared_bufers"), 0)));
    assertTrue(e.getMessage().contains("shared_bufers"));
  }

  @Test
  void analysisSaysPlainlyWhichKnobsMatter() {
    Objective tps = Objective.maximize("tps");
    Sweep sweep =
        new Sweep(
            OptimizerSpec.of(space, tps),
            new SweepPlan(List.of("shared_buffers", "random_page_cost", "jit"), 3));
    // baseline 1000 tps measured three times: noise about 1%
    for (double v : new double[] {990, 1000, 1010}) {
      sweep.observe(Configuration.empty(), Outcome.ok("tps", v));
    }
    while (!sweep.isExhausted()) {
      Configuration c = sweep.suggest();
      Outcome o;
      if (c.has("shared_buffers")) {
        long sb = (Long) c.get("shared_buffers");
        o =
            sb == 16384
                ? Outcome.failed("over the limit")
                : Outcome.ok("tps", 1000 + 100 * Math.log(sb / 128.0) / Math.log(8));
      } else if (c.has("random_page_cost")) {
        o = Outcome.ok("tps", 1000 + 8 * ((Double) c.get("random_page_cost") - 2.5));
      } else {
        o = Outcome.ok("tps", 1002);
      }
      sweep.observe(c, o);
    }
    SweepAnalysis a = sweep.analysis(Double.NaN);
    assertEquals(0.01, a.noiseCv(), 1e-9);
    assertEquals(1000, a.baselineMean(), 1e-9);
    KnobSensitivity sb = a.ranking().get(0);
    assertEquals("shared_buffers", sb.knob());
    assertEquals(Verdict.EFFECT, sb.verdict());
    assertEquals(4096L, sb.bestValue());
    assertTrue(sb.summary().startsWith("+16.7% at 4096MB; range "), sb.summary());
    assertTrue(sb.summary().endsWith("1 value failed"), sb.summary());
    assertEquals(Verdict.WITHIN_NOISE, a.sensitivity("random_page_cost").orElseThrow().verdict());
    assertEquals(Verdict.NO_EFFECT, a.sensitivity("jit").orElseThrow().verdict());
    KnobCurve curve = a.curve("shared_buffers").orElseThrow();
    assertEquals(7, curve.points().size());
    KnobCurve.Point atDefault = curve.points().get(2);
    assertTrue(atDefault.isDefault());
    assertEquals(3, atDefault.runs());
    assertEquals(1, curve.points().get(6).failures());
    assertFalse(a.sensitivity("io_method").isPresent(), "not swept");
  }

  /**
   * An objective command's loss is 0 at its optimum: against a reference of 0 a percentage is
   * infinite (the sweep of pgknob optimize printed "others up to Infinity% away"), so the summary
   * gives the objective's own units.
   */
  @Test
  void aSweepAgainstAReferenceOfZeroSaysItsRangeInTheObjectivesUnits() {
    Objective loss = Objective.minimize("loss");
    List<Observation> runs = new java.util.ArrayList<>();
    runs.add(new Observation(Configuration.empty(), Outcome.ok("loss", 0)));
    double[] costs = {1.5, 2.5, 3.5};
    double[] atDefault = {0, 4, 0.25};
    for (int i = 0; i < costs.length; i++) {
      runs.add(
          new Observation(
              Configuration.empty().with("random_page_cost", costs[i]),
              Outcome.ok("loss", atDefault[i] == 0 ? 1.25 : atDefault[i])));
      runs.add(
          new Observation(
              Configuration.empty().with("shared_buffers", 512L << i),
              Outcome.ok("loss", -0.5 * i)));
    }
    SweepAnalysis a = SweepAnalysis.of(space, loss, runs, Double.NaN);
    KnobSensitivity rpc = a.sensitivity("random_page_cost").orElseThrow();
    assertEquals(
        "default is best; others up to 4.000 away (noise unknown)", rpc.summary(), rpc.summary());
    KnobSensitivity sb = a.sensitivity("shared_buffers").orElseThrow();
    assertEquals("-1.000 at 2048MB; range 1.000 (noise unknown)", sb.summary(), sb.summary());
  }

  @Test
  void aLoneDroppedBaselineRunNeitherLowersTheReferenceNorInflatesTheNoise() {
    // A noise-bench session: the third baseline lost 30%, and a shared_buffers curve worth +24%
    // read "within noise (1.7 x noise)" against the 22% spread the drop made.
    Objective tps = Objective.maximize("tps");
    List<Observation> runs = new java.util.ArrayList<>();
    for (double v : new double[] {1082.4, 1055.1, 691.6}) {
      runs.add(new Observation(Configuration.empty(), Outcome.ok("tps", v)));
    }
    long[] sizes = {512, 1024, 2048, 4096, 8192};
    double[] measured = {1277.4, 1233.1, 1306.9, 1275.1, 1245.4};
    for (int i = 0; i < sizes.length; i++) {
      runs.add(
          new Observation(
              Configuration.empty().with("shared_buffers", sizes[i]),
              Outcome.ok("tps", measured[i])));
    }
    SweepAnalysis a = SweepAnalysis.of(space, tps, runs, Double.NaN);
    assertEquals(2, a.baselineRuns(), "the drop is left out");
    assertEquals((1082.4 + 1055.1) / 2, a.baselineMean(), 1e-9);
    KnobSensitivity sb = a.sensitivity("shared_buffers").orElseThrow();
    assertEquals(Verdict.EFFECT, sb.verdict(), sb.summary());
    assertEquals(2048L, sb.bestValue());

    // two runs far apart: either may be the odd one, so both stay (and the noise is wide)
    SweepAnalysis two = SweepAnalysis.of(space, tps, runs.subList(1, runs.size()), Double.NaN);
    assertEquals(2, two.baselineRuns());
    assertEquals(Verdict.WITHIN_NOISE, two.sensitivity("shared_buffers").orElseThrow().verdict());
    // a spread with no lone run far below the others is noise, and stays in
    List<Observation> even = new java.util.ArrayList<>(runs);
    even.set(2, new Observation(Configuration.empty(), Outcome.ok("tps", 900)));
    assertEquals(3, SweepAnalysis.of(space, tps, even, Double.NaN).baselineRuns());
  }
}
