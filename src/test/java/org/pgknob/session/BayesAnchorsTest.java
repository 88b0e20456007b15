package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.Objective;
import org.pgknob.optimize.Observation;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.Outcome;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.optimize.model.GpFitter;
import org.pgknob.runs.Track;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;

/** The informed initial design of a track: best sweep values and the PGTune-style configuration. */
class BayesAnchorsTest {
  private static final Objective TPS = Objective.maximize("tps");
  private static final SearchSpace SPACE =
      new SearchSpace(
          "test",
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
                  null),
              new Knob(
                  "work_mem",
                  KnobType.INTEGER,
                  64,
                  1048576,
                  Scale.LOG,
                  "kB",
                  null,
                  null,
                  null,
                  4096L,
                  null),
              new Knob(
                  "jit",
                  KnobType.BOOL,
                  0,
                  0,
                  Scale.LINEAR,
                  "",
                  List.of("on", "off"),
                  null,
                  null,
                  "on",
                  null)));

  /** PGTune's spelling: memory in its own units, the server converts. */
  private static final Map<String, String> PGTUNE =
      Map.of("shared_buffers", "1GB", "work_mem", "5242kB", "jit", "off", "max_connections", "100");

  /**
   * Three baselines at 1000 TPS, a shared_buffers sweep that peaks at 2048 MB (+30%, far beyond the
   * 1% noise) and a work_mem sweep within noise.
   */
  private static SweepAnalysis sweeps() {
    List<Observation> obs = new ArrayList<>();
    for (double tps : new double[] {995, 1000, 1005}) {
      obs.add(new Observation(Configuration.empty(), Outcome.ok("tps", tps)));
    }
    long[] buffers = {32, 512, 2048, 8192};
    double[] tps = {900, 1150, 1300, 1200};
    for (int i = 0; i < buffers.length; i++) {
      obs.add(
          new Observation(
              Configuration.of(Map.of("shared_buffers", buffers[i])), Outcome.ok("tps", tps[i])));
    }
    for (long w : new long[] {1024, 65536}) {
      obs.add(new Observation(Configuration.of(Map.of("work_mem", w)), Outcome.ok("tps", 1001)));
    }
    return SweepAnalysis.of(SPACE, TPS, obs, Double.NaN);
  }

  @Test
  void pgTuneSettingsBecomeKnobValuesInTheKnobsUnits() {
    Configuration c = BayesAnchors.fromSettings(SPACE, PGTUNE);
    assertEquals(Map.of("shared_buffers", 1024L, "work_mem", 5242L, "jit", "off"), c.values());
  }

  @Test
  void bestSweepValuesKeepOnlyKnobsWithAnEffect() {
    assertEquals(
        Map.of("shared_buffers", 2048L), BayesAnchors.bestSweepValues(SPACE, sweeps()).values());
  }

  @Test
  void aCurveWithinNoiseWhoseBestLeadsTheDefaultsByMoreThanTheNoiseStillGivesItsBestValue() {
    // 7% noise: baselines 1000, 1070, 930 (CV 7%); shared_buffers' sweep +15% at 2048MB (range
    // 2.1 x noise: within noise, but the best leads the defaults by 2 noise sds); work_mem's best
    // leads by 3% only (under one noise sd): a coin toss, left out
    List<Observation> obs = new ArrayList<>();
    for (double tps : new double[] {1000, 1070, 930}) {
      obs.add(new Observation(Configuration.empty(), Outcome.ok("tps", tps)));
    }
    long[] buffers = {512, 2048, 8192};
    double[] tps = {1080, 1150, 1040};
    for (int i = 0; i < buffers.length; i++) {
      obs.add(
          new Observation(
              Configuration.of(Map.of("shared_buffers", buffers[i])), Outcome.ok("tps", tps[i])));
    }
    obs.add(new Observation(Configuration.of(Map.of("work_mem", 65536L)), Outcome.ok("tps", 1030)));
    obs.add(new Observation(Configuration.of(Map.of("work_mem", 1024L)), Outcome.ok("tps", 940)));
    SweepAnalysis sweeps = SweepAnalysis.of(SPACE, TPS, obs, Double.NaN);
    assertEquals(
        org.pgknob.optimize.KnobSensitivity.Verdict.WITHIN_NOISE,
        sweeps.sensitivity("shared_buffers").orElseThrow().verdict());
    assertEquals(
        org.pgknob.optimize.KnobSensitivity.Verdict.WITHIN_NOISE,
        sweeps.sensitivity("work_mem").orElseThrow().verdict());
    assertEquals(
        Map.of("shared_buffers", 2048L), BayesAnchors.bestSweepValues(SPACE, sweeps).values());
    assertEquals(
        Configuration.of(Map.of("shared_buffers", 2048L, "work_mem", 5242L, "jit", "off")),
        BayesAnchors.of(Track.RESTART, SPACE, PGTUNE, sweeps).get(2),
        "PGTune-style with the sweep's shared_buffers");
  }

  @Test
  void theRestartTracksInformedDesignStartsWithBestSweepsAndPgTune() {
    List<Configuration> anchors = BayesAnchors.of(Track.RESTART, SPACE, PGTUNE, sweeps());
    Configuration best = Configuration.of(Map.of("shared_buffers", 2048L));
    Configuration pgTune =
        Configuration.of(Map.of("shared_buffers", 1024L, "work_mem", 5242L, "jit", "off"));
    Configuration combined =
        Configuration.of(Map.of("shared_buffers", 2048L, "work_mem", 5242L, "jit", "off"));
    assertEquals(List.of(best, pgTune, combined), anchors);

    // the optimizer's first suggestions are exactly those, as the space holds them
    OptimizerSpec spec = OptimizerSpec.of(SPACE, TPS).withSeed(9).withAnchors(anchors);
    Bayes bayes = new Bayes(spec, new GpFitter());
    List<Configuration> first = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Configuration c = bayes.suggest();
      first.add(c);
      bayes.observe(c, Outcome.ok("tps", 1000 + i));
    }
    assertEquals(bayes.anchors(), first);
    assertEquals(2048L, first.get(0).get("shared_buffers"));
    assertEquals(
        Map.of("shared_buffers", 1024L, "work_mem", 5242L, "jit", "off"), first.get(1).values());
  }

  @Test
  void theReloadTrackTakesTheBestSweepValuesAndPgTunesReloadSettings() {
    SearchSpace reload = SPACE.subset(k -> !k.name().equals("shared_buffers"));
    assertEquals(
        List.of(Configuration.of(Map.of("work_mem", 5242L, "jit", "off"))),
        BayesAnchors.of(Track.RELOAD, reload, PGTUNE, sweeps()),
        "no sweep effect among its knobs: PGTune-style's reload settings only");
    assertTrue(BayesAnchors.of(Track.RELOAD, reload, Map.of(), sweeps()).isEmpty());
  }
}
