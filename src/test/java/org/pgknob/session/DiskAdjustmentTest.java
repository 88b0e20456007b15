package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pgknob.measure.AdjustedRatio;
import org.pgknob.runs.Goal;
import org.pgknob.trial.TrialResult;

/**
 * Validation rounds of the defaults and a candidate 10% faster, on a disk whose write rate varies
 * from run to run (100 to 400 writes a second) and whose rate TPS follows (TPS ~ rate^0.4), with 2%
 * of other noise: the adjusted ratio must cover 1.10 and be far narrower than the plain one.
 */
class DiskAdjustmentTest {
  private static final Map<String, String> CANDIDATE = Map.of("work_mem", "8MB");

  private static List<TrialResult> rounds(boolean probed) {
    return rounds(probed, 1);
  }

  /** {@code candidateRateFactor}: the candidate's own writes change the rate its runs see. */
  private static List<TrialResult> rounds(boolean probed, double candidateRateFactor) {
    Random random = new Random(16);
    List<TrialResult> trials = new ArrayList<>();
    int trial = 1;
    for (int round = 1; round <= 4; round++) {
      for (String subject : List.of("baseline", "restart/tps")) {
        double level = subject.equals("baseline") ? 1000 : 1100;
        double rate =
            (100 + 300 * random.nextDouble())
                * (subject.equals("baseline") ? 1 : candidateRateFactor);
        double tps = level * Math.pow(rate / 200, 0.4) * Math.exp(0.02 * random.nextGaussian());
        TrialResult t =
            Trials.ok(
                trial++,
                "validation",
                "restart",
                "validation round " + round + "/4 " + subject,
                Map.of(),
                subject.equals("baseline") ? Map.of() : CANDIDATE,
                tps,
                10);
        trials.add(probed ? Trials.withDiskRate(t, rate) : t);
      }
    }
    return trials;
  }

  private static AdjustedRatio ratio(List<TrialResult> trials) {
    List<double[]> pairs = new ArrayList<>();
    for (TrialResult[] p : ValidationRounds.runsByRound("baseline", "restart/tps", trials)) {
      pairs.add(DiskAdjustment.pair(p[0], p[1], Goal.TPS));
    }
    return DiskAdjustment.ratio(
        pairs,
        new SessionMeasurements(trials, Goal.TPS).noise(),
        DiskAdjustment.slope(trials, Goal.TPS),
        0.95);
  }

  @Test
  void aDiskRateMeasuredInsideTheWindowIsShownButNeverAdjustsAValidationRatio() {
    // TPS follows the rate here, and the slope is found, yet the server's own writes share the
    // disk with the probe, so the ratio stays the plain one and the verdict says nothing of it
    AdjustedRatio r = ratio(rounds(true));
    assertFalse(r.applied());
    assertEquals(r.plain(), r.used());
    assertEquals(0.4, r.slope().slope(), 3 * r.slope().slopeSe());
    assertEquals("", DiskAdjustment.note(r));
    assertTrue(
        DiskAdjustment.line(rounds(true), Goal.TPS).contains("not used to adjust validation"),
        DiskAdjustment.line(rounds(true), Goal.TPS));
  }

  @Test
  void aCandidateThatSlowsTheProbeKeepsThePlainRatio() {
    // the candidate's runs see a third of the rate: its own writes, not the machine
    AdjustedRatio r = ratio(rounds(true, 1 / 3.0));
    assertFalse(r.applied());
    assertEquals(r.plain(), r.used());
  }

  @Test
  void runsRecordedWithoutTheDiskRateGiveThePlainRatio() {
    AdjustedRatio r = ratio(rounds(false));
    assertFalse(r.applied());
    assertEquals(r.plain(), r.used());
    assertEquals("", DiskAdjustment.note(r));
    assertEquals("", DiskAdjustment.line(rounds(false), Goal.TPS));
  }
}
