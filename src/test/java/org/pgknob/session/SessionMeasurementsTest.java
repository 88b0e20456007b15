package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.Outcome;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.WorkloadResult;

class SessionMeasurementsTest {
  private static TrialResult trial(int n, Map<String, String> settings, double tps) {
    return Trials.ok(n, "bayes", "restart", "t" + n, Map.of(), settings, tps, 1000 / tps);
  }

  /** {@code t} with a measured timeline of the given per-second commits. */
  private static TrialResult withTimeline(TrialResult t, long... perSecond) {
    List<SecondSample> timeline = new ArrayList<>();
    timeline.add(new SecondSample(1, false, 5, 1)); // ramp-up: not measured
    for (int i = 0; i < perSecond.length; i++) {
      timeline.add(new SecondSample(i + 2, true, perSecond[i], 2));
    }
    WorkloadResult w = t.workload();
    return new TrialResult(
        t.trial(),
        t.phase(),
        t.track(),
        t.label(),
        t.config(),
        t.settings(),
        t.status(),
        t.reason(),
        new WorkloadResult(
            w.windowSeconds(),
            w.committed(),
            w.errors(),
            w.rollbacks(),
            w.tps(),
            w.tpsWithCheckpoint(),
            w.tpm(),
            w.nopm(),
            w.overall(),
            w.transactions(),
            timeline,
            w.checkpoint(),
            w.extra()),
        t.resources(),
        t.predictedMemoryBytes(),
        t.startedAt(),
        t.timingsSeconds());
  }

  @Test
  void poolsEveryRepeatedConfigurationAndCorrectsADriftOfTheDefaults() {
    Map<String, String> a = Map.of("shared_buffers", "1GB");
    List<TrialResult> trials =
        List.of(
            trial(1, Map.of(), 1000),
            trial(2, Map.of(), 1000),
            trial(3, Map.of(), 1000),
            trial(4, a, 1500), // a at 1.5x the defaults' level of its time
            trial(5, a, 1800), // ... and at 1.5x a level that rose 20% by trial 6
            trial(6, Map.of(), 1200),
            trial(7, Map.of("work_mem", "8MB"), 1300));
    SessionMeasurements m = new SessionMeasurements(trials, "tps");
    // defaults: 4 runs (3 df), a: 2 runs (1 df); work_mem ran once
    assertEquals(4, m.noise().degreesOfFreedom());
    assertEquals(6, m.noise().runs());
    assertEquals(2, m.noise().configurations());
    // smoothed levels (the objective counts the checkpoint: 0.95 x TPS in these records): trial 3
    // is the mean of 1000, 1000, 1200 in log scale
    double level3 = 0.95 * Math.exp((2 * Math.log(1000) + Math.log(1200)) / 3);
    double level6 = 0.95 * Math.exp((Math.log(1000) + Math.log(1200)) / 2);
    assertEquals(level3, m.drift().levelAt(3), 1e-6);
    assertEquals(level6, m.drift().levelAt(7), 1e-6);
    double level5 = Math.exp((Math.log(level3) + 2 * Math.log(level6)) / 3);
    assertEquals(1800 * 0.95 / level5, m.relative(trials.get(4)), 1e-9);
    assertTrue(m.drift().range() > 0.05);
    Summary.Measurement s = m.summary();
    assertEquals(4, s.noiseDegreesOfFreedom());
    assertEquals(4, s.references().size());
  }

  @Test
  void windowErrorComesFromTheMeasuredSecondsAndFeedsTheObservation() {
    List<TrialResult> trials =
        List.of(
            withTimeline(trial(1, Map.of(), 1000), 100, 100, 100, 100, 100, 100, 100, 100, 100),
            withTimeline(trial(2, Map.of(), 1000), 90, 110, 100, 90, 110, 100, 90, 110, 100),
            trial(3, Map.of("x", "1"), 1200));
    SessionMeasurements m = new SessionMeasurements(trials, "tps");
    assertEquals(0, m.window(1).orElseThrow().standardError(), 0);
    // batches of 3 seconds: means 100, 100, 100
    assertEquals(0, m.window(2).orElseThrow().standardError(), 1e-12);
    assertTrue(m.window(3).isEmpty(), "no timeline, no window error");
    Outcome o = Objectives.correctedOutcome(trials.get(2), Objectives.Measured.of(trials));
    assertEquals(1200 * 0.95, o.value("tps").getAsDouble(), 1e-9, "no drift between 1 and 2");
    assertTrue(o.standardError("tps").isPresent());
  }
}
