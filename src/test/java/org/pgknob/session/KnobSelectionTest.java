package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.MainEffect;
import org.pgknob.optimize.Objective;
import org.pgknob.optimize.Observation;
import org.pgknob.optimize.Outcome;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.runs.Track;
import org.pgknob.space.Condition;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;

/**
 * The choice of a track's knobs from synthetic sweeps (baseline noise 1%) and synthetic model
 * effects: effects beyond 3 x noise first, flat sweeps last, growth only by what the model finds.
 */
class KnobSelectionTest {
  /** Knobs whose names start with r_ need a restart. */
  private static final Predicate<String> RESTART = n -> n.startsWith("r_");

  private static Knob real(String name) {
    return new Knob(name, KnobType.REAL, 0, 10, Scale.LINEAR, "", null, null, null, 5.0, "");
  }

  /**
   * Reload knobs a (strong), b (flat), c (weak), d (not swept), method/workers (a conditional
   * pair); restart knobs r_big (strong) and r_flat (flat).
   */
  private static SearchSpace space() {
    List<Knob> knobs = new ArrayList<>();
    for (String n : List.of("a", "b", "c", "d", "r_big", "r_flat")) {
      knobs.add(real(n));
    }
    knobs.add(
        new Knob(
            "method",
            KnobType.ENUM,
            0,
            0,
            Scale.LINEAR,
            "",
            List.of("sync", "worker"),
            null,
            null,
            "sync",
            ""));
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
            new Condition("method", List.of("worker")),
            3L,
            ""));
    return new SearchSpace("synthetic", knobs);
  }

  /** Baseline 1000 TPS five times (1% noise); sweeps of a (+20%), b (flat), c (+2%), r_*. */
  private static SweepAnalysis sweeps() {
    Random noise = new Random(3);
    List<Observation> obs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      obs.add(run(Map.of(), 1000 * (1 + 0.01 * noise.nextGaussian())));
    }
    Map<String, Double> slope = Map.of("a", 0.2, "b", 0.0, "c", 0.02, "r_big", 0.3, "r_flat", 0.0);
    for (var e : slope.entrySet()) {
      for (double v : new double[] {0, 2, 4, 6, 8, 10}) {
        obs.add(run(Map.of(e.getKey(), v), 1000 * (1 + e.getValue() * v / 10)));
      }
    }
    return SweepAnalysis.of(space(), Objective.maximize("tps"), obs, Double.NaN);
  }

  private static Observation run(Map<String, Object> config, double tps) {
    return new Observation(Configuration.of(config), Outcome.ok("tps", tps));
  }

  private static List<MainEffect> noModel() {
    return List.of();
  }

  private static KnobSelection.Choice choice(KnobSelection.Result r, String knob) {
    return r.choices().stream().filter(c -> c.knob().equals(knob)).findFirst().orElseThrow();
  }

  @Test
  void sweepEffectsBeyondTheNoiseComeFirstAndFlatSweepsAreLeftOut() {
    KnobSelection.Result r =
        KnobSelection.initial(
            space(), RESTART, Track.RELOAD, 2, 0, new KnobSelection.Evidence(sweeps(), noModel()));
    assertEquals(List.of("a", "c"), List.copyOf(r.searched()), r.choices().toString());
    assertTrue(choice(r, "a").reason().startsWith("sweep +"), choice(r, "a").reason());
    assertTrue(choice(r, "a").sweepNoiseMultiple() > 10, choice(r, "a").toString());
    assertFalse(choice(r, "b").searched());
    assertEquals("sweep: no effect (range under the noise)", choice(r, "b").reason());
    assertEquals("needs a restart (reload track)", choice(r, "r_big").reason());
    assertEquals(r.searched(), java.util.Set.copyOf(r.space().names()));
  }

  @Test
  void theRestartTrackAddsTheStrongestRestartKnob() {
    KnobSelection.Result r =
        KnobSelection.initial(
            space(), RESTART, Track.RESTART, 1, 1, new KnobSelection.Evidence(sweeps(), noModel()));
    assertEquals(List.of("a", "r_big"), List.copyOf(r.searched()), r.choices().toString());
  }

  @Test
  void aModelEffectBeyondTheNoiseBringsAKnobTheSweepsMissed() {
    // d was never swept; the model says its main effect spans 8% (8 x the 1% noise)
    List<MainEffect> model =
        List.of(new MainEffect("d", 0.4, 0.08), new MainEffect("c", 0.01, 0.005));
    KnobSelection.Result r =
        KnobSelection.initial(
            space(), RESTART, Track.RELOAD, 2, 0, new KnobSelection.Evidence(sweeps(), model));
    assertEquals(List.of("a", "d"), List.copyOf(r.searched()), r.choices().toString());
    assertTrue(
        choice(r, "d").reason().startsWith("model main effect 8.0%"), choice(r, "d").reason());
    assertEquals(0.4, choice(r, "d").modelIndex());
  }

  @Test
  void aModelEffectWithinTheNoiseBringsNothing() {
    List<MainEffect> model = List.of(new MainEffect("d", 0.5, 0.02));
    KnobSelection.Result r =
        KnobSelection.initial(
            space(), RESTART, Track.RELOAD, 2, 0, new KnobSelection.Evidence(sweeps(), model));
    assertEquals(List.of("a", "c"), List.copyOf(r.searched()), r.choices().toString());
  }

  @Test
  void theSetGrowsByWhatALaterModelFindsAndNeverShrinks() {
    SearchSpace space = space();
    KnobSelection.Evidence atStart = new KnobSelection.Evidence(sweeps(), noModel());
    KnobSelection.Result first = KnobSelection.initial(space, RESTART, Track.RELOAD, 1, 0, atStart);
    assertEquals(List.of("a"), List.copyOf(first.searched()));
    // after 10 trials the model finds workers (6 x noise): it comes with method, its parent
    KnobSelection.Evidence later =
        new KnobSelection.Evidence(
            sweeps(),
            List.of(
                new MainEffect("a", 0.5, 0.2),
                new MainEffect("workers", 0.3, 0.06),
                new MainEffect("r_big", 0.2, 0.3)));
    KnobSelection.Result grown =
        KnobSelection.grown(first, space, RESTART, Track.RELOAD, later, 31);
    assertEquals(
        List.of("a", "workers", "method"), List.copyOf(grown.searched()), grown.toString());
    assertEquals(31, choice(grown, "workers").addedAfterTrial());
    assertTrue(
        choice(grown, "workers").reason().startsWith("added after trial 31: main effect 6.0%"),
        choice(grown, "workers").reason());
    assertFalse(choice(grown, "r_big").searched(), "the reload track cannot apply it");
    // a model that no longer sees a's effect does not take a out
    KnobSelection.Result again =
        KnobSelection.grown(
            grown,
            space,
            RESTART,
            Track.RELOAD,
            new KnobSelection.Evidence(sweeps(), noModel()),
            41);
    assertSame(grown, again);
  }

  @Test
  void withoutAMeasuredNoiseTheModelsIndexDecides() {
    List<Observation> oneBaseline = List.of(run(Map.of(), 1000));
    SweepAnalysis noNoise =
        SweepAnalysis.of(space(), Objective.maximize("tps"), oneBaseline, Double.NaN);
    List<MainEffect> model =
        List.of(new MainEffect("d", 0.3, 0.01), new MainEffect("c", 0.05, 0.5));
    KnobSelection.Result r =
        KnobSelection.initial(
            space(), RESTART, Track.RELOAD, 1, 0, new KnobSelection.Evidence(noNoise, model));
    assertEquals(List.of("d"), List.copyOf(r.searched()), r.choices().toString());
  }
}
