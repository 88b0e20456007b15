package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/**
 * The screening design on synthetic functions whose relevant and inert knobs are known: it finds
 * the relevant ones, in one trial per knob up to 15 knobs and in about half that above, a failure
 * counts as an effect, and a probe that moves the objective adds a held knob.
 */
class ScreeningTest {
  private static final Objective COST = Objective.minimize("cost");

  /** {@code dims} reals on [0, 1] named x0, x1, ..., and {@code extra} knobs after them. */
  private static SearchSpace reals(int dims, Knob... extra) {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < dims; i++) {
      knobs.add(TestSpaces.real("x" + i, 0, 1, 0.5));
    }
    knobs.addAll(List.of(extra));
    return new SearchSpace("reals", knobs);
  }

  private static double x(Configuration c, String knob) {
    return ((Number) c.get(knob)).doubleValue();
  }

  /** The screening of {@code space} run to its end on {@code f} (NaN: the trial fails). */
  private record Screened(Screening screening, History history, Screening.State state) {
    List<String> active(SearchSpace space) {
      List<String> out = new ArrayList<>();
      for (int s = 0; s < space.size(); s++) {
        if (state.active()[s]) {
          out.add(space.knobs().get(s).name());
        }
      }
      return out;
    }
  }

  private static Screened screen(
      SearchSpace space, ToDoubleFunction<Configuration> f, double noiseSd, long seed) {
    OptimizerSpec spec = OptimizerSpec.of(space, COST).withSeed(seed);
    History history = new History(space);
    CandidateCheck check = new CandidateCheck(spec, history);
    Screening screening = new Screening(new UnitCubeEncoder(space), COST, List.of(), seed);
    Random noise = new Random(seed + 100);
    Screening.State state = screening.state(history, check);
    for (int trial = 0; !state.done(); trial++) {
      assertTrue(trial < 2 * space.size() + 4, "the screening does not end");
      Configuration c = state.next().orElseThrow();
      double v = f.applyAsDouble(c);
      history.add(
          c,
          Double.isNaN(v)
              ? Outcome.failed("infeasible")
              : Outcome.ok("cost", v + noiseSd * noise.nextGaussian()));
      state = screening.state(history, check);
    }
    return new Screened(screening, history, state);
  }

  @Test
  void findsTheTwoKnobsThatMatterAmongTwelveInOneTrialPerKnob() {
    SearchSpace space = reals(12);
    ToDoubleFunction<Configuration> f = c -> 10 * Math.pow(x(c, "x3") - 0.2, 2) + 5 * x(c, "x8");
    for (long seed = 1; seed <= 5; seed++) {
      Screened s = screen(space, f, 0.05, seed);
      List<String> active = s.active(space);
      assertTrue(active.containsAll(List.of("x3", "x8")), "seed " + seed + ": " + active);
      // the noise is estimated from 12 effects and the threshold is low: an inert knob may pass
      assertTrue(active.size() <= 4, "seed " + seed + ": " + active);
      assertEquals(13, s.history().size(), "a base and one point per knob, seed " + seed);
    }
  }

  @Test
  void findsTheKnobsThatMatterAmongTwentyFourInPairsWithFewerTrialsThanKnobs() {
    Knob mode = TestSpaces.enumKnob("mode", List.of("a", "b", "c"), "a");
    Knob flag = TestSpaces.bool("flag", "on");
    SearchSpace space = reals(22, mode, flag);
    ToDoubleFunction<Configuration> f =
        c ->
            10 * Math.pow(x(c, "x5") - 0.2, 2)
                + 6 * x(c, "x17")
                + 2.0 * List.of("a", "b", "c").indexOf(c.get("mode").toString());
    for (long seed = 1; seed <= 5; seed++) {
      Screened s = screen(space, f, 0.05, seed);
      List<String> active = s.active(space);
      assertTrue(active.containsAll(List.of("x5", "x17", "mode")), "seed " + seed + ": " + active);
      assertTrue(active.size() <= 5, "seed " + seed + ": " + active);
      // a base, 12 pairs, and one split per pair that moved
      assertTrue(s.history().size() <= 18, s.history().size() + " trials, seed " + seed);
    }
  }

  @Test
  void aMoveThatFailsToRunCountsAsAnEffect() {
    SearchSpace space = reals(12);
    // every screening move of x4 leaves the middle half of its range, where the trial fails
    ToDoubleFunction<Configuration> f =
        c ->
            x(c, "x4") < 0.25 || x(c, "x4") > 0.75
                ? Double.NaN
                : 10 * Math.pow(x(c, "x3") - 0.2, 2) + 5 * x(c, "x8");
    Screened s = screen(space, f, 0, 3);
    assertEquals(List.of("x3", "x4", "x8"), s.active(space));
  }

  @Test
  void withoutAnEffectBeyondTheNoiseTheTwoLargestStayActive() {
    SearchSpace space = reals(12);
    Screened s = screen(space, c -> 1.0, 0, 2);
    assertEquals(2, s.active(space).size(), s.active(space).toString());
  }

  @Test
  void aProbeThatMovesTheObjectiveBeyondTheNoiseAddsTheHeldKnob() {
    SearchSpace space = reals(12);
    ToDoubleFunction<Configuration> f = c -> 10 * Math.pow(x(c, "x3") - 0.2, 2) + 5 * x(c, "x8");
    for (double jump : new double[] {0.0, 3.0}) {
      Screened s = screen(space, f, 0.05, 4);
      OptimizerSpec spec = OptimizerSpec.of(space, COST).withSeed(4);
      CandidateCheck check = new CandidateCheck(spec, s.history());
      Configuration incumbent = s.history().all().get(0).configuration().with("x3", 0.2);
      s.history().add(incumbent, Outcome.ok("cost", f.applyAsDouble(incumbent)));
      String held =
          space.names().stream()
              .filter(n -> !s.active(space).contains(n))
              .findFirst()
              .orElseThrow();
      Configuration probe = incumbent.with(held, x(incumbent, held) < 0.5 ? 0.9 : 0.1);
      s.history().add(probe, Outcome.ok("cost", f.applyAsDouble(probe) + jump));
      List<String> active =
          new Screened(null, s.history(), s.screening().state(s.history(), check)).active(space);
      assertEquals(jump > 0, active.contains(held), "jump " + jump + ": " + active);
      assertTrue(active.containsAll(List.of("x3", "x8")), active.toString());
    }
  }

  @Test
  void aConditionalKnobInactiveAtTheBaseIsActiveWhenItsConditionKnobIs() {
    Knob method = TestSpaces.enumKnob("method", List.of("sync", "worker"), "sync");
    Knob workers =
        new Knob(
            "workers",
            org.pgknob.space.KnobType.INTEGER,
            1,
            32,
            org.pgknob.space.Scale.LINEAR,
            "",
            null,
            null,
            new org.pgknob.space.Condition("method", List.of("worker")),
            3L,
            "");
    SearchSpace space = reals(10, method, workers);
    ToDoubleFunction<Configuration> f =
        c -> 5 * x(c, "x2") + ("worker".equals(c.get("method")) ? -3 : 0);
    boolean sawInactiveBase = false;
    for (long seed = 1; seed <= 8; seed++) {
      Screened s = screen(space, f, 0, seed);
      Configuration base = s.history().all().get(0).configuration();
      if (!base.has("workers")) {
        sawInactiveBase = true;
        assertTrue(s.active(space).contains("workers"), "seed " + seed + ": " + s.active(space));
      }
      assertTrue(s.active(space).containsAll(List.of("x2", "method")), s.active(space).toString());
      assertFalse(s.active(space).contains("x0"), s.active(space).toString());
    }
    assertTrue(sawInactiveBase, "no seed started where workers is inactive");
  }
}
