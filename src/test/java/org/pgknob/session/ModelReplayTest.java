package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.SurrogateKind;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.TrialResult;

/** A track's pick from its logged trials, on synthetic trials of known values. */
class ModelReplayTest {
  private static final SearchSpace SPACE =
      new SearchSpace(
          "test",
          List.of(
              new Knob(
                  "shared_buffers",
                  KnobType.INTEGER,
                  64,
                  16384,
                  Scale.LOG,
                  "MB",
                  null,
                  null,
                  null,
                  128L,
                  null)));

  private final List<TrialResult> trials = new ArrayList<>();

  private void run(String phase, String label, long sharedBuffersMb, double tps) {
    int n = trials.size() + 1;
    Map<String, Object> config =
        sharedBuffersMb == 128 ? Map.of() : Map.of("shared_buffers", sharedBuffersMb);
    Map<String, String> settings =
        sharedBuffersMb == 128 ? Map.of() : Map.of("shared_buffers", sharedBuffersMb + "MB");
    trials.add(Trials.ok(n, phase, "restart", label, config, settings, tps, 4000 / tps));
  }

  @Test
  void theTracksPickIsTheBestPosteriorMeanNotTheEarlyRaceWinner() {
    // The session of noise-bench seed 1, in small: the first proposals' race is won by the one
    // with the luckiest window (512MB, +15%); a later proposal (2GB, +35%) has no room left for a
    // race, but its two runs and its neighbour's say it is better, and it is the one validated.
    for (int i = 1; i <= 3; i++) {
      run("baseline", "baseline " + i + "/3", 128, 1000 + 5 * i);
    }
    run("bayes", "bayes restart 1/9", 512, 1150);
    run("bayes", "bayes restart 2/9", 8192, 1020);
    run("bayes", "bayes restart 3/9", 1024, 1230);
    run("race", "race in bayes restart 4/9: incumbent defaults pair 1", 128, 990);
    run("race", "race in bayes restart 5/9: challenger #4 pair 1", 512, 1140);
    run("race", "race in bayes restart 6/9: incumbent defaults pair 2", 128, 1010);
    run("race", "race in bayes restart 7/9: challenger #4 pair 2", 512, 1160);
    run("bayes", "bayes restart 8/9", 2048, 1360);
    run("reference", "reference in bayes restart 9/9: incumbent #11", 2048, 1340);
    OptimizerSpec spec = new OptimizerSpec(SPACE, Objectives.of("tps"), 7, c -> true, true);

    Configuration pick = ModelReplay.best(spec, SurrogateKind.GP, trials);

    assertEquals(Map.of("shared_buffers", 2048L), pick.values());
  }

  @Test
  void aRaceWinnerMeasuredBestStaysThePick() {
    for (int i = 1; i <= 3; i++) {
      run("baseline", "baseline " + i + "/3", 128, 1000 + 5 * i);
    }
    run("bayes", "bayes restart 1/5", 2048, 1300);
    run("bayes", "bayes restart 2/5", 8192, 1020);
    run("bayes", "bayes restart 3/5", 512, 1150);
    run("race", "race in bayes restart 4/5: incumbent defaults pair 1", 128, 990);
    run("race", "race in bayes restart 5/5: challenger #4 pair 1", 2048, 1330);
    OptimizerSpec spec = new OptimizerSpec(SPACE, Objectives.of("tps"), 7, c -> true, true);

    assertEquals(
        Map.of("shared_buffers", 2048L), ModelReplay.best(spec, SurrogateKind.GP, trials).values());
  }
}
