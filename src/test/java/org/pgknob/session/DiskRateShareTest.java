package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.trial.TrialResult;

/**
 * Validation rounds of the defaults and a candidate 10% faster, on a disk whose write rate varies
 * from run to run (100 to 400 writes a second) and whose rate TPS follows (TPS ~ rate^0.4), with 2%
 * of other noise.
 */
class DiskRateShareTest {
  private static final Map<String, String> CANDIDATE = Map.of("work_mem", "8MB");

  private static List<TrialResult> rounds(boolean probed) {
    Random random = new Random(16);
    List<TrialResult> trials = new ArrayList<>();
    int trial = 1;
    for (int round = 1; round <= 4; round++) {
      for (String subject : List.of("baseline", "restart/tps")) {
        double level = subject.equals("baseline") ? 1000 : 1100;
        double rate = 100 + 300 * random.nextDouble();
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

  @Test
  void theShareOfTheNoiseTheDiskRateExplainsIsShownAndSaysItAdjustsNothing() {
    String line = DiskRateShare.line(rounds(true), Goal.TPS);
    // TPS ~ rate^0.4 with 2% of other noise: the rate explains most of the variance
    assertTrue(line.startsWith("disk (tps): the disk's synchronous write rate"), line);
    Matcher m = Pattern.compile("slope ([+-][0-9.]+) per log unit, se ([0-9.]+)").matcher(line);
    assertTrue(m.find(), line);
    assertEquals(0.4, Double.parseDouble(m.group(1)), 3 * Double.parseDouble(m.group(2)), line);
    assertTrue(line.contains("not used to adjust validation"), line);
  }

  @Test
  void runsRecordedWithoutTheDiskRateSayNothingOfTheDisk() {
    // the probe is off by default (--disk-probe), and old sessions never probed
    assertEquals("", DiskRateShare.line(rounds(false), Goal.TPS));
  }
}
