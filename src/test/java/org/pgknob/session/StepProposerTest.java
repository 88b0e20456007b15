package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.optimize.Objective;
import org.pgknob.runs.Track;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

class StepProposerTest {
  private static final SearchSpace SPACE =
      new SearchSpace(
          "test",
          List.of(
              new Knob(
                  "shared_buffers",
                  KnobType.INTEGER,
                  64,
                  8192,
                  Scale.LOG,
                  "MB",
                  null,
                  null,
                  null,
                  128L,
                  null),
              new Knob(
                  "wal_buffers",
                  KnobType.INTEGER,
                  1,
                  64,
                  Scale.LOG,
                  "MB",
                  null,
                  null,
                  null,
                  -1L,
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

  @Test
  void dropsKnobsSetToTheirDefaultButKeepsValuesAClampedDefaultWouldHide() {
    Configuration proposed =
        Configuration.of(Map.of("shared_buffers", 128L, "wal_buffers", 1L, "jit", "off"));
    assertEquals(
        Map.of("wal_buffers", 1L, "jit", "off"),
        StepProposer.withoutDefaults(proposed, SPACE).values());
    Configuration allDefaults = Configuration.of(Map.of("shared_buffers", 128L, "jit", "on"));
    assertEquals(Map.of(), StepProposer.withoutDefaults(allDefaults, SPACE).values());
  }

  /**
   * The sweep trials come from the Sweep optimizer replayed over the logged trials: in the plan's
   * order and on its values, whatever the earlier sweep trials gave (a refused one, a crashed one),
   * so a session resumed before any sweep trial proposes what the uninterrupted one would.
   */
  @Test
  void sweepTrialsAreTheSweepOptimizersPointsInThePlansOrderWhateverTheEarlierOnesGave() {
    SessionPlan plan =
        new SessionPlan(
            3,
            List.of(
                new SessionPlan.SweepKnob(
                    "shared_buffers", Track.RESTART, "MB", List.of(64, 1024L)),
                new SessionPlan.SweepKnob("jit", Track.RELOAD, "", List.of("off")),
                new SessionPlan.SweepKnob("wal_buffers", Track.RESTART, "MB", List.of(1L, 64L))),
            List.of(),
            List.of(),
            0);
    Objective tps = Objective.maximize("tps");
    List<TrialResult> logged = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      String label = plan.next(logged).orElseThrow().label();
      logged.add(Trials.ok(k, "baseline", "reload", label, Map.of(), Map.of(), 100, 5));
    }
    List<Map<String, Object>> proposed = new ArrayList<>();
    Status[] outcomes = {Status.REJECTED, Status.OK, Status.CRASHED, Status.OK, Status.OK};
    for (Step step = plan.next(logged).orElseThrow();
        step.phase() == Phase.SWEEP;
        step = plan.next(logged).orElse(null)) {
      Configuration c = StepProposer.sweepPoint(plan, SPACE, tps, step, logged);
      proposed.add(c.values());
      logged.add(sweepTrial(step, c, outcomes[proposed.size() - 1]));
      if (plan.next(logged).isEmpty()) {
        break;
      }
    }
    assertEquals(
        List.of(
            Map.of("shared_buffers", 64L),
            Map.of("shared_buffers", 1024L),
            Map.of("jit", "off"),
            Map.of("wal_buffers", 1L),
            Map.of("wal_buffers", 64L)),
        proposed);
  }

  private static TrialResult sweepTrial(Step step, Configuration c, Status status) {
    return new TrialResult(
        step.trial(),
        step.phase(),
        step.track(),
        step.label(),
        c.values(),
        Map.of(),
        status,
        status == Status.OK ? "" : "refused or crashed",
        null,
        null,
        null,
        Instant.parse("2026-12-01T00:00:00Z"),
        Map.of());
  }
}
