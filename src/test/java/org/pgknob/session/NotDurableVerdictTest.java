package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;

class NotDurableVerdictTest {
  @Test
  void aPickThatTurnsOffSynchronousCommitSaysSoInItsHeadline() {
    Verdict v = Verdict.of(facts(Map.of("synchronous_commit", "off", "work_mem", "8MB")));
    assertEquals(Verdict.Kind.APPLY, v.kind());
    assertTrue(
        v.headline().contains(" Not durable: synchronous_commit=off (the last commits before a"),
        v.headline());
    assertTrue(
        v.headline().contains("pgknob sets it only with --allow-durability-tradeoff"),
        v.headline());
    // apply refuses the value without the flag: the step gives it
    assertTrue(
        v.toSummary().next().stream()
            .anyMatch(
                n ->
                    n.command().startsWith("./pgknob apply --from ")
                        && n.command().endsWith(" --allow-durability-tradeoff")),
        v.toSummary().next().toString());
  }

  @Test
  void aPickThatTurnsOffFsyncIsAppliedWithAllowUnsafe() {
    Verdict v =
        Verdict.of(facts(Map.of("synchronous_commit", "off", "fsync", "false", "work_mem", "8MB")));
    assertTrue(v.headline().contains("fsync=false (a crash or power loss"), v.headline());
    assertTrue(
        v.toSummary().next().stream()
            .anyMatch(
                n ->
                    n.command().startsWith("./pgknob apply --from ")
                        && n.command().endsWith(" --allow-unsafe")),
        v.toSummary().next().toString());
  }

  @Test
  void aDurablePicksHeadlineHasNoWarning() {
    Verdict v = Verdict.of(facts(Map.of("synchronous_commit", "on", "work_mem", "8MB")));
    assertEquals(Verdict.Kind.APPLY, v.kind());
    assertFalse(v.headline().contains("durable"), v.headline());
    assertFalse(
        v.toSummary().next().toString().contains("--allow-"), v.toSummary().next().toString());
  }

  private static VerdictFacts facts(Map<String, String> settings) {
    Summary.Ratio gain = new Summary.Ratio(1.5, 1.3, 1.7, 5);
    Summary.ResultRow pick =
        new Summary.ResultRow(
            "reload/tps",
            Track.RELOAD,
            Goal.TPS,
            settings,
            2000,
            null,
            4,
            9,
            gain,
            new Summary.Ratio(0.66, 0.6, 0.75, 5),
            List.of(7),
            "gain",
            null,
            0,
            0,
            null);
    return VerdictFactsFixture.of(List.of(pick));
  }
}
