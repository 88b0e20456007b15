package org.pgknob.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DriftModelTest {
  /** A slow drift of +-12% over 60 trials, as the noise benchmark uses. */
  static double drift(double t) {
    return 1 + 0.12 * Math.sin(2 * Math.PI * t / 60);
  }

  @Test
  void interpolatesInLogScaleAndHoldsFlatBeyondTheEnds() {
    DriftModel m =
        DriftModel.of(
            List.of(new DriftModel.Reference(10, 1000), new DriftModel.Reference(0, 100)), 1);
    assertEquals(100, m.levelAt(-5), 1e-9);
    assertEquals(1000, m.levelAt(20), 1e-9);
    assertEquals(Math.sqrt(100 * 1000), m.levelAt(5), 1e-9);
    assertEquals(2.0, m.relative(5, 2 * Math.sqrt(100 * 1000)), 1e-12);
    assertEquals(9.0, m.range(), 1e-9);
    // corrected values are in the units of the references' geometric mean level
    assertEquals(2 * Math.sqrt(100 * 1000), m.corrected(10, 2000), 1e-9);
  }

  @Test
  void removesAKnownDriftFromTrialsBetweenNoiselessReferences() {
    List<DriftModel.Reference> refs = new ArrayList<>();
    for (int t = 0; t <= 60; t += 4) {
      refs.add(new DriftModel.Reference(t, 2000 * drift(t)));
    }
    DriftModel m = DriftModel.of(refs, 1);
    double worstRaw = 0;
    double worstCorrected = 0;
    for (int t = 0; t <= 60; t++) {
      double trial = 2400 * drift(t); // a configuration truly 1.2x the reference
      worstRaw = Math.max(worstRaw, Math.abs(trial / 2000 / 1.2 - 1));
      worstCorrected = Math.max(worstCorrected, Math.abs(m.relative(t, trial) / 1.2 - 1));
    }
    assertTrue(worstRaw > 0.11, "the drift moves raw values by " + worstRaw);
    assertTrue(worstCorrected < 0.01, "corrected values off by " + worstCorrected);
  }

  @Test
  void withNoisyReferencesCorrectionStillBeatsTheRawValues() {
    Random random = new Random(8);
    double noise = 0.05;
    double rawSquares = 0;
    double correctedSquares = 0;
    for (int session = 0; session < 200; session++) {
      double phase = random.nextDouble() * 60;
      List<DriftModel.Reference> refs = new ArrayList<>();
      for (int t = 0; t <= 60; t += 5) {
        refs.add(
            new DriftModel.Reference(
                t, 2000 * drift(t + phase) * Math.exp(noise * random.nextGaussian())));
      }
      DriftModel m = DriftModel.of(refs, 3);
      for (int t = 1; t < 60; t += 5) {
        double trial = 2400 * drift(t + phase) * Math.exp(noise * random.nextGaussian());
        rawSquares += Math.pow(Math.log(trial / 2000 / 1.2), 2);
        correctedSquares += Math.pow(Math.log(m.relative(t, trial) / 1.2), 2);
      }
    }
    // raw: noise^2 + drift variance (0.12^2 / 2); corrected: about noise^2 (1 + 1/3)
    assertTrue(
        correctedSquares < 0.6 * rawSquares,
        "corrected " + correctedSquares + " vs raw " + rawSquares);
  }

  @Test
  void driftBeyondTheNoiseIsSeenAndPureNoiseIsNot() {
    RunNoise noise = new RunNoise(0.05, 20, 25, 3);
    List<DriftModel.Reference> flat = new ArrayList<>();
    List<DriftModel.Reference> moving = new ArrayList<>();
    Random random = new Random(2);
    for (int t = 0; t < 40; t += 4) {
      flat.add(new DriftModel.Reference(t, 1000 * Math.exp(0.05 * random.nextGaussian() / 3)));
      moving.add(new DriftModel.Reference(t, 1000 * Math.exp(0.02 * t)));
    }
    assertEquals(0, DriftModel.of(flat, 1).driftPerTime(noise, 1), 0.0);
    assertEquals(0, DriftModel.of(moving.subList(0, 2), 1).driftPerTime(noise, 5), 0.0);
    // 0.08 per 4 trials in log; minus 2 x 0.05^2 of noise variance per step
    assertEquals(
        Math.sqrt(0.08 * 0.08 - 2 * 0.05 * 0.05) / 4,
        DriftModel.of(moving, 1).driftPerTime(noise, 4),
        1e-9);
  }

  @Test
  void referenceScheduleShortensWithDriftAndLengthensWithout() {
    ReferenceSchedule s = new ReferenceSchedule(3, 12);
    RunNoise noise = new RunNoise(0.06, 10, 14, 3);
    assertEquals(12, s.interval(0, noise));
    assertEquals(12, s.interval(0.001, noise));
    assertEquals(6, s.interval(0.005, noise)); // 0.03 / 0.005
    assertEquals(3, s.interval(0.1, noise));
    assertEquals(12, s.interval(0.1, new RunNoise(0, 0, 0, 0)), "no noise known yet");
  }

  @Test
  void aSecondReferenceTellsTheDriftBetweenRareRunsOfTheDefaultsThroughItsRatio() {
    // the defaults ran at the start and the end only; an incumbent truly 1.3x them ran in between
    List<DriftModel.Reference> defaults = new ArrayList<>();
    List<DriftModel.Reference> incumbent = new ArrayList<>();
    for (int t : new int[] {0, 1, 2, 58, 59, 60}) {
      defaults.add(new DriftModel.Reference(t, 1000 * drift(t)));
    }
    for (int t = 6; t <= 54; t += 8) {
      incumbent.add(new DriftModel.Reference(t, 1300 * drift(t)));
    }
    DriftModel alone = DriftModel.of(defaults, 1);
    DriftModel both = DriftModel.of(defaults, List.of(incumbent), 1);
    double worstAlone = 0;
    double worstBoth = 0;
    for (int t = 0; t <= 60; t++) {
      double trial = 1200 * drift(t); // a configuration truly 1.2x the defaults
      worstAlone = Math.max(worstAlone, Math.abs(alone.relative(t, trial) / 1.2 - 1));
      worstBoth = Math.max(worstBoth, Math.abs(both.relative(t, trial) / 1.2 - 1));
    }
    assertTrue(worstAlone > 0.1, "the defaults alone miss the drift by " + worstAlone);
    assertTrue(worstBoth < 0.02, "with the incumbent's ratios, off by " + worstBoth);
    // still relative to the defaults: their own runs read as 1
    assertEquals(1.0, both.relative(30, 1000 * drift(30)), 0.02);
  }

  @Test
  void aSecondReferenceRunOnceAddsNothing() {
    List<DriftModel.Reference> defaults =
        List.of(new DriftModel.Reference(0, 1000), new DriftModel.Reference(10, 1100));
    DriftModel both =
        DriftModel.of(defaults, List.of(List.of(new DriftModel.Reference(5, 5000))), 1);
    assertEquals(DriftModel.of(defaults, 1).levelAt(5), both.levelAt(5), 1e-9);
    assertEquals(2, both.references());
  }

  @Test
  void aReferenceRunThirtyPercentLowDoesNotPullTheLevelAroundIt() {
    List<DriftModel.Reference> refs = new ArrayList<>();
    for (int t = 0; t <= 60; t += 4) {
      refs.add(new DriftModel.Reference(t, 2000 * drift(t) * (t == 28 ? 0.7 : 1)));
    }
    DriftModel m = DriftModel.of(refs, 3);
    assertEquals(1, m.droppedReferences());
    assertEquals(16, m.references());
    for (int t = 20; t <= 36; t++) {
      // kept in, the drop would pull the smoothed level by 11% (ln(0.7) / 3); the 2.5% left is
      // the smoothing's lag on the drift's slope, over runs 12 trials apart around the gap
      assertEquals(1.0, m.levelAt(t) / (2000 * drift(t)), 0.025, "level at " + t);
    }
  }

  @Test
  void underNoiseADropIsLeftOutAndOrdinaryRunsAreKept() {
    Random random = new Random(5);
    int sessions = 500;
    double pulledSquares = 0;
    int dropsLeftOut = 0;
    int ordinaryLeftOut = 0;
    int ordinary = 0;
    for (int session = 0; session < sessions; session++) {
      double phase = random.nextDouble() * 60;
      int drop = 2 + random.nextInt(9); // one run of the middle 30% low
      List<DriftModel.Reference> refs = new ArrayList<>();
      for (int i = 0; i < 13; i++) {
        double value = 2000 * drift(5 * i + phase) * Math.exp(0.07 * random.nextGaussian());
        refs.add(new DriftModel.Reference(5 * i, value * (i == drop ? 0.7 : 1)));
      }
      DriftModel m = DriftModel.of(refs, 3);
      pulledSquares +=
          Math.pow(Math.log(m.levelAt(5 * drop) / (2000 * drift(5 * drop + phase))), 2);
      boolean[] out = DriftModel.dropped(logs(refs));
      for (int i = 0; i < out.length; i++) {
        if (i == drop) {
          dropsLeftOut += out[i] ? 1 : 0;
        } else {
          ordinary++;
          ordinaryLeftOut += out[i] ? 1 : 0;
        }
      }
    }
    // a drop averaged in over 3 runs pulls the level by ln(0.7) / 3 = -0.119 on top of the noise
    double rms = Math.sqrt(pulledSquares / sessions);
    assertTrue(rms < 0.07, "the level at the drop is off by " + rms + " (rms, log)");
    assertTrue(dropsLeftOut > 0.8 * sessions, dropsLeftOut + " drops left out");
    assertTrue(ordinaryLeftOut < 0.02 * ordinary, ordinaryLeftOut + " ordinary runs left out");
  }

  @Test
  void aRisingTrendInAShortSeriesIsNoDrop() {
    // a noise-bench session's defaults (seed 2): three baselines at the start, two race runs later,
    // the level rising by 20% between; the steps' spread is near 0 by chance
    double[] times = {1, 2, 3, 20, 22};
    double[] values = {860, 920, 1030, 1100, 1040};
    List<DriftModel.Reference> refs = new ArrayList<>();
    for (int i = 0; i < times.length; i++) {
      refs.add(new DriftModel.Reference(times[i], values[i]));
    }
    assertEquals(0, DriftModel.of(refs, 3).droppedReferences());
  }

  @Test
  void fewReferenceRunsAreAllKept() {
    List<DriftModel.Reference> refs =
        List.of(
            new DriftModel.Reference(0, 1000),
            new DriftModel.Reference(5, 1000),
            new DriftModel.Reference(10, 700),
            new DriftModel.Reference(15, 1000));
    assertEquals(0, DriftModel.of(refs, 3).droppedReferences());
  }

  private static double[] logs(List<DriftModel.Reference> refs) {
    double[] logs = new double[refs.size()];
    for (int i = 0; i < logs.length; i++) {
      logs[i] = Math.log(refs.get(i).value());
    }
    return logs;
  }
}
