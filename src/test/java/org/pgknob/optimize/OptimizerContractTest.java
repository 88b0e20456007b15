package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;

/**
 * The contract every optimizer keeps (see {@link Optimizer}); one subclass per optimizer. A run of
 * suggestions on a mixed space is made once per class and checked property by property.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OptimizerContractTest {
  static final int ROUNDS = 24;
  final SearchSpace space = contractSpace();
  final Objective objective = Objective.maximize("tps");
  List<Configuration> run;

  abstract Optimizer create(OptimizerSpec spec);

  /**
   * The space the contract is checked on: the mixed one; an optimizer that behaves differently on
   * numeric knobs alone checks it on {@link TestSpaces#numeric()} (the enum and conditional checks
   * then hold for want of such knobs).
   */
  SearchSpace contractSpace() {
    return TestSpaces.mixed();
  }

  /**
   * False for an optimizer whose first suggestion is given (an anchored one: its first anchor), so
   * the first suggestion says nothing about how it samples the space.
   */
  boolean firstSuggestionIsSampled() {
    return true;
  }

  /** A sweep ends; the others go on as long as the space has new points. */
  boolean isOpenEnded() {
    return true;
  }

  OptimizerSpec spec(long seed) {
    return OptimizerSpec.of(space, objective).withSeed(seed);
  }

  /** Suggests and observes up to {@code rounds} times; noise makes the objective realistic. */
  List<Configuration> drive(Optimizer opt, SearchSpace s, int rounds, long noiseSeed) {
    Random noise = new Random(noiseSeed);
    List<Configuration> out = new ArrayList<>();
    for (int i = 0; i < rounds && !opt.isExhausted(); i++) {
      Configuration c = opt.suggest();
      out.add(c);
      opt.observe(
          c, Outcome.ok("tps", TestSpaces.tps(space, c) * (1 + 0.02 * noise.nextGaussian())));
    }
    return out;
  }

  @BeforeAll
  void suggestOnce() {
    run = drive(create(spec(7)), space, ROUNDS, 1);
    assertTrue(run.size() >= 10, "too few suggestions to check: " + run.size());
  }

  @Test
  void everySuggestionIsAdmittedBySpace() {
    for (Configuration c : run) {
      assertTrue(space.admits(c), "not admitted: " + c);
    }
  }

  @Test
  void numericValuesStayWithinBounds() {
    for (Configuration c : run) {
      for (Knob k : space.knobs()) {
        if (k.isNumeric() && c.has(k.name())) {
          double v = ((Number) c.get(k.name())).doubleValue();
          assertTrue(v >= k.min() && v <= k.max(), k.name() + " = " + v);
        }
      }
    }
  }

  @Test
  void integerKnobsGetWholeNumbers() {
    for (Configuration c : run) {
      if (c.has("shared_buffers")) {
        assertInstanceOf(Long.class, c.get("shared_buffers"));
      }
      if (c.has("io_workers")) {
        assertInstanceOf(Long.class, c.get("io_workers"));
      }
    }
  }

  @Test
  void enumValuesAreAmongTheChoices() {
    for (Configuration c : run) {
      if (c.has("io_method")) {
        assertTrue(space.knob("io_method").choices().contains(c.get("io_method")), c.toString());
      }
    }
  }

  @Test
  void conditionalKnobAbsentWhenItsConditionFails() {
    for (Configuration c : run) {
      if (!space.names().contains("io_method")) {
        continue;
      }
      String io = c.valueOrDefault("io_method", space).toString();
      if (!io.equals("worker")) {
        assertFalse(c.has("io_workers"), "io_workers set with io_method=" + io + ": " + c);
      }
    }
  }

  @Test
  void logKnobIsSampledEvenlyInTheLogarithm() {
    // Before any model exists, a log knob's values should fall below the geometric midpoint about
    // half the time (a linear sampler would put nearly all of them above it). Later suggestions
    // follow the model, so the check takes the first suggestion of many seeds.
    if (!isOpenEnded() || !firstSuggestionIsSampled()) {
      return; // a sweep's grid on a log scale is checked in SweepTest; anchors in BayesAnchorsTest
    }
    double mid = Math.sqrt(16.0 * 16384.0);
    int below = 0;
    int set = 0;
    for (long seed = 1; seed <= 40; seed++) {
      Configuration c = create(spec(seed)).suggest();
      if (c.has("shared_buffers")) {
        set++;
        below += ((Number) c.get("shared_buffers")).doubleValue() < mid ? 1 : 0;
      }
    }
    assertTrue(set >= 20, "shared_buffers set only " + set + " times");
    double fraction = below / (double) set;
    assertTrue(fraction > 0.25 && fraction < 0.75, "fraction below geometric midpoint " + fraction);
  }

  @Test
  void sameSeedGivesTheSameSequence() {
    List<Configuration> again = drive(create(spec(7)), space, ROUNDS, 1);
    assertEquals(run, again);
  }

  @Test
  void differentSeedsGiveDifferentSequences() {
    if (!isOpenEnded()) {
      return; // a sweep is the same plan whatever the seed
    }
    assertNotEquals(run, drive(create(spec(8)), space, ROUNDS, 1));
  }

  @Test
  void neverSuggestsAnAlreadyObservedConfiguration() {
    SearchSpace small = TestSpaces.discrete();
    Optimizer opt = create(OptimizerSpec.of(small, objective).withSeed(3));
    opt.observe(Configuration.empty(), Outcome.ok("tps", 10));
    Set<Configuration> seen = new HashSet<>();
    seen.add(History.effective(small, Configuration.empty()));
    for (int i = 0; i < 12 && !opt.isExhausted(); i++) {
      Configuration c = opt.suggest();
      assertTrue(seen.add(History.effective(small, c)), "repeated " + c + " at round " + i);
      opt.observe(c, Outcome.ok("tps", 10 + i % 5));
    }
  }

  @Test
  void repeatsAnObservedConfigurationOnlyWhenAllowed() {
    SearchSpace one = new SearchSpace("one", List.of(TestSpaces.bool("jit", "on")));
    OptimizerSpec base = OptimizerSpec.of(one, objective);
    Optimizer strict = create(base);
    strict.observe(Configuration.of(Map.of("jit", "on")), Outcome.ok("tps", 1));
    strict.observe(Configuration.of(Map.of("jit", "off")), Outcome.ok("tps", 2));
    boolean refused;
    try {
      refused = strict.isExhausted() || strict.suggest() == null;
    } catch (NoCandidateLeftException e) {
      refused = true;
    }
    assertTrue(refused, "suggested a repeat without being allowed to");
    if (isOpenEnded()) {
      Optimizer lenient = create(base.withRepeatsAllowed(true));
      lenient.observe(Configuration.of(Map.of("jit", "on")), Outcome.ok("tps", 1));
      lenient.observe(Configuration.of(Map.of("jit", "off")), Outcome.ok("tps", 2));
      assertTrue(one.admits(lenient.suggest()));
    }
  }

  @Test
  void copesWhenEveryObservationFailed() {
    Optimizer opt = create(spec(2));
    for (int i = 0; i < 12 && !opt.isExhausted(); i++) {
      Configuration c = opt.suggest();
      assertTrue(space.admits(c), c.toString());
      opt.observe(c, Outcome.failed("boom " + i));
    }
  }

  @Test
  void acceptsObservationsItNeverSuggested() {
    Optimizer opt = create(spec(4));
    Random r = new Random(9);
    for (int i = 0; i < 10; i++) {
      Map<String, Object> values = new java.util.HashMap<>();
      values.put("shared_buffers", (long) (16 + r.nextInt(4000)));
      if (space.names().contains("io_method")) {
        values.put("io_method", i % 3 == 0 ? "sync" : "worker");
      }
      Configuration c = Configuration.of(values);
      opt.observe(c, Outcome.ok("tps", TestSpaces.tps(space, c)));
    }
    opt.observe(Configuration.empty(), Outcome.failed("by a rule"));
    if (!opt.isExhausted()) {
      assertTrue(space.admits(opt.suggest()));
    }
  }

  @Test
  void knownConstraintIsAlwaysHonoured() {
    Predicate<Configuration> atMost1GB =
        c -> ((Number) c.valueOrDefault("shared_buffers", space)).longValue() <= 1024;
    Optimizer opt = create(spec(5).withKnownConstraint(atMost1GB));
    int seen = 0;
    for (int i = 0; i < ROUNDS && !opt.isExhausted(); i++) {
      Configuration c = opt.suggest();
      assertTrue(atMost1GB.test(c), "violates the constraint: " + c);
      seen++;
      opt.observe(c, Outcome.ok("tps", TestSpaces.tps(space, c)));
    }
    assertTrue(seen >= 5);
  }
}
