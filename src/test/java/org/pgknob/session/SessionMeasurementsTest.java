package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.measure.RunNoise;
import org.pgknob.optimize.Outcome;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.server.ResourceSummary;
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
            w.tps(),
            w.tpsWithCheckpoint(),
            w.overall(),
            timeline,
            w.checkpoint(),
            w.extra(),
            w.tpcc()),
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
    SessionMeasurements m = new SessionMeasurements(trials, Goal.TPS);
    // defaults: 4 runs (3 df), a: 2 runs (1 df); work_mem ran once
    assertEquals(4, m.noise().degreesOfFreedom());
    assertEquals(6, m.noise().runs());
    assertEquals(2, m.noise().configurations());
    // the defaults say the level rose 20% from trial 3 to trial 6; a ran at 1.5x the level of
    // its time twice, so its two runs, read as ratios, place much of that rise between trials 4
    // and 5 (the defaults alone spread it over 3 to 6, and leave a's runs 17% apart)
    double raw = Math.log(1800.0 / 1500);
    double corrected = Math.log(m.relative(trials.get(4)) / m.relative(trials.get(3)));
    assertTrue(Math.abs(corrected) < 0.75 * raw, corrected + " against " + raw);
    // relative to the defaults: their last run reads about 1
    assertEquals(1.0, m.relative(trials.get(5)), 0.1);
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
    SessionMeasurements m = new SessionMeasurements(trials, Goal.TPS);
    assertEquals(0, m.window(1).orElseThrow().standardError(), 0);
    // batches of 3 seconds: means 100, 100, 100
    assertEquals(0, m.window(2).orElseThrow().standardError(), 1e-12);
    assertTrue(m.window(3).isEmpty(), "no timeline, no window error");
    Outcome o = Objectives.correctedOutcome(trials.get(2), Objectives.Measured.of(trials));
    assertEquals(1200 * 0.95, o.value("tps").getAsDouble(), 1e-9, "no drift between 1 and 2");
    assertTrue(o.standardError("tps").isPresent());
  }

  @Test
  void theOptimizerSeesAnUnstableConfigurationAtItsWorstRun() {
    Map<String, String> erratic = Map.of("x", "erratic");
    Map<String, String> steady = Map.of("x", "steady");
    List<TrialResult> trials =
        List.of(
            trial(1, Map.of(), 1000),
            trial(2, Map.of(), 1010),
            trial(3, Map.of(), 990),
            trial(4, erratic, 1600),
            trial(5, steady, 1100),
            trial(6, Map.of(), 1005),
            trial(7, erratic, 700),
            trial(8, steady, 1110),
            trial(9, erratic, 1550),
            trial(10, Map.of(), 995));
    SessionMeasurements m = new SessionMeasurements(trials, Goal.TPS);
    Map<Integer, Double> ranking = Objectives.unstableRanking(trials, m, true);
    assertEquals(java.util.Set.of(4, 7, 9), ranking.keySet(), "only the erratic one");
    Objectives.Measured measured = Objectives.Measured.of(trials);
    double worst = m.corrected(trials.get(6));
    for (int t : new int[] {4, 7, 9}) {
      assertEquals(
          worst,
          Objectives.correctedOutcome(trials.get(t - 1), measured).value("tps").getAsDouble(),
          1e-9,
          "trial " + t + " ranks as the erratic one's worst run");
    }
    assertEquals(
        m.corrected(trials.get(4)),
        Objectives.correctedOutcome(trials.get(4), measured).value("tps").getAsDouble(),
        1e-9,
        "a steady configuration keeps its own values");
  }

  /** {@code t} as if other processes had used {@code foreignCores} of 2 cores in its window. */
  private static TrialResult withForeignCpu(TrialResult t, double foreignCores) {
    ResourceSummary r =
        new ResourceSummary(
            true, 50, 10, 0, 0, 0, 0, 0, 0, 15, foreignCores, foreignCores, 2, 0, null);
    return new TrialResult(
        t.trial(),
        t.phase(),
        t.track(),
        t.label(),
        t.config(),
        t.settings(),
        t.status(),
        t.reason(),
        t.workload(),
        r,
        t.predictedMemoryBytes(),
        t.startedAt(),
        t.timingsSeconds());
  }

  @Test
  void aBaselineRunThatABuildDisturbedIsLeftOutOfTheNoiseWhileTheOthersWereQuiet() {
    List<TrialResult> trials =
        List.of(
            withForeignCpu(trial(1, Map.of(), 1700), 0.1),
            withForeignCpu(trial(2, Map.of(), 1740), 0.1),
            withForeignCpu(trial(3, Map.of(), 1000), 1.0));
    RunNoise n = new SessionMeasurements(trials, Goal.TPS).noise();
    assertEquals(2, n.runs());
    assertEquals(Math.abs(Math.log(1740.0 / 1700)) / Math.sqrt(2), n.logSd(), 1e-12);
  }

  @Test
  void onAMachineBusyThroughoutEveryRunIsTheNoise() {
    List<TrialResult> trials =
        List.of(
            withForeignCpu(trial(1, Map.of(), 1700), 1.0),
            withForeignCpu(trial(2, Map.of(), 1740), 0.8),
            withForeignCpu(trial(3, Map.of(), 1000), 1.0));
    RunNoise n = new SessionMeasurements(trials, Goal.TPS).noise();
    assertEquals(3, n.runs());
    assertTrue(n.logSd() > 0.25, "the slow run counts: " + n.logSd());
  }

  @Test
  void twoDisturbedBaselinesAmongTenRunsOfTheDefaultsAreLeftOutOfTheNoise() {
    // The defaults' runs of a recorded 12-minute session: a build ran beside baselines 2 and 3.
    double[] tps = {2950, 1627, 1576, 3081, 3016, 3045, 2877, 3018, 2991, 2963};
    List<TrialResult> trials = new ArrayList<>();
    for (int i = 0; i < tps.length; i++) {
      double foreign = i == 1 || i == 2 ? 0.95 : 0.1;
      trials.add(withForeignCpu(trial(i + 1, Map.of(), tps[i]), foreign));
    }
    RunNoise n = new SessionMeasurements(trials, Goal.TPS).noise();
    assertEquals(8, n.runs());
    assertTrue(n.cv() < 0.03, "the quiet runs agree within 2%: " + n.cv());
  }

  @Test
  void whenHalfOfAConfigurationsRunsWereDisturbedEveryRunCounts() {
    List<TrialResult> trials =
        List.of(
            withForeignCpu(trial(1, Map.of(), 1700), 0.1),
            withForeignCpu(trial(2, Map.of(), 1000), 1.0),
            withForeignCpu(trial(3, Map.of(), 1740), 0.1),
            withForeignCpu(trial(4, Map.of(), 1050), 1.0));
    RunNoise n = new SessionMeasurements(trials, Goal.TPS).noise();
    assertEquals(4, n.runs());
    assertTrue(n.logSd() > 0.25, "the slow runs count: " + n.logSd());
  }

  /**
   * PGTune-style's runs beside a cron job's query (4 of its 7 disturbed), in a session whose runs
   * were mostly quiet: its quiet runs are the noise, as the defaults' are.
   */
  @Test
  void
      whenMostOfTheSessionWasQuietAConfigurationsDisturbedRunsAreLeftOutEvenIfTheyOutnumberItsQuietOnes() {
    Map<String, String> pgtune = Map.of("work_mem", "72MB");
    List<TrialResult> trials = new ArrayList<>();
    double[] defaults = {2598, 2685, 2809, 2642, 2826, 2880};
    for (int i = 0; i < defaults.length; i++) {
      trials.add(withForeignCpu(trial(trials.size() + 1, Map.of(), defaults[i]), 0.04));
    }
    double[] pgtuneTps = {2251, 2814, 2078, 2808, 1675, 2859, 1708};
    boolean[] covered = {true, false, true, false, true, false, true};
    for (int i = 0; i < pgtuneTps.length; i++) {
      trials.add(
          withForeignCpu(trial(trials.size() + 1, pgtune, pgtuneTps[i]), covered[i] ? 0.7 : 0.04));
    }
    RunNoise n = new SessionMeasurements(trials, Goal.TPS).noise();
    assertEquals(9, n.runs());
    assertTrue(n.cv() < 0.05, "the quiet runs agree within 4%: " + n.cv());
  }

  /**
   * A query that began halfway through a window swings its seconds by far more than a quiet
   * window's: in a mostly quiet session the window error the noise is split by is the quiet
   * windows'.
   */
  @Test
  void theWindowErrorOfAMostlyQuietSessionComesFromItsQuietWindows() {
    long[] steady = {1000, 1010, 990, 1000, 1005, 995, 1000, 1000, 1002};
    long[] halfCovered = {2800, 2790, 2810, 2800, 1700, 1690, 1710, 1700, 1700};
    List<TrialResult> trials = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      trials.add(withForeignCpu(withTimeline(trial(i, Map.of(), 1000), steady), 0.04));
    }
    trials.add(withForeignCpu(withTimeline(trial(5, Map.of(), 2200), halfCovered), 0.45));
    SessionMeasurements m = new SessionMeasurements(trials, Goal.TPS);
    assertTrue(m.window(5).orElseThrow().relativeError() > 0.1, "the covered window swings");
    double quiet = m.window(1).orElseThrow().relativeError();
    assertEquals(quiet, m.components().withinLogSd(), 1e-12);
    // the console's and summary.json's window error: the same windows
    assertEquals(4, m.summary().windows());
    assertEquals(quiet, m.summary().windowRelativeSe(), 1e-12);
  }

  @Test
  void quietTrialsAreComparedWithTheQuietRunsOfTheDefaultsWhenABuildTouchedSomeOfThem() {
    // A recorded session: a busy loop beside baselines 2 and 3, the search quiet after them.
    List<TrialResult> trials = new ArrayList<>();
    trials.add(withForeignCpu(trial(1, Map.of(), 2866), 0.03));
    trials.add(withForeignCpu(trial(2, Map.of(), 1854), 0.87));
    trials.add(withForeignCpu(trial(3, Map.of(), 1782), 0.85));
    TrialResult quiet = withForeignCpu(trial(4, Map.of("work_mem", "64MB"), 2848), 0.03);
    TrialResult busy = withForeignCpu(trial(5, Map.of("work_mem", "32MB"), 1900), 0.9);
    trials.add(quiet);
    trials.add(busy);
    SessionMeasurements m = new SessionMeasurements(trials, Goal.TPS);

    assertEquals(2848.0 / 2866, m.relative(quiet), 1e-9);
    double allRuns = m.drift().relative(busy.trial(), Objectives.value(busy, Goal.TPS));
    assertEquals(allRuns, m.relative(busy), 1e-12);
    // against the quiet run alone it would read 1900 / 2866 = 0.66
    assertTrue(allRuns > 1.0, "the disturbed trial meets the disturbed runs' level: " + allRuns);
    // one scale for both: each corrected value is its ratio times the level of all runs
    assertEquals(m.relative(quiet) * m.drift().meanLevel(), m.corrected(quiet), 1e-9);
  }

  @Test
  void withoutADisturbedReferenceEveryTrialMeetsTheLevelOfAllRuns() {
    List<TrialResult> trials =
        List.of(
            withForeignCpu(trial(1, Map.of(), 1700), 0.1),
            withForeignCpu(trial(2, Map.of("work_mem", "64MB"), 1900), 0.9),
            withForeignCpu(trial(3, Map.of(), 1500), 0.1),
            withForeignCpu(trial(4, Map.of("work_mem", "32MB"), 1600), 0.1));
    SessionMeasurements m = new SessionMeasurements(trials, Goal.TPS);
    for (TrialResult t : trials) {
      double value = Objectives.value(t, Goal.TPS);
      assertEquals(m.drift().corrected(t.trial(), value), m.corrected(t));
    }
  }
}
