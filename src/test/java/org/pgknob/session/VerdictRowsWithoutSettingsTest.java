package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;

/**
 * A row without settings is a pick that changes nothing only when its row says so: a track with no
 * successful trial, or a latency the workload does not report, is said in the row's own words.
 * Before, every such row read "no change found (its pick is the server's own settings)".
 */
class VerdictRowsWithoutSettingsTest {
  @Test
  void eachRowWithoutSettingsIsSaidInItsOwnWords() {
    Verdict v =
        Verdict.of(
            new VerdictFacts(
                "runs/x",
                Goal.TPS,
                List.of(
                    row("reload/tps", Track.RELOAD, Goal.TPS, "no change found: the search's best"),
                    row(
                        "restart/tps",
                        Track.RESTART,
                        Goal.TPS,
                        "no successful trial in this track"),
                    row("reload/latency", Track.RELOAD, Goal.LATENCY, Objectives.NOT_REPORTED)),
                Map.of(),
                Set.of("shared_buffers"),
                Map.of(),
                Optional.empty(),
                "",
                "",
                false));

    assertEquals(Verdict.Kind.NOTHING, v.kind(), v.headline());
    assertEquals(
        List.of(
            "reload/tps: no change found (its pick is the server's own settings)",
            "restart/tps: no successful trial in this track",
            "reload/latency: not measured: the workload reports no latency"),
        v.details());
  }

  private static Summary.ResultRow row(String name, Track track, Goal goal, String verdict) {
    return new Summary.ResultRow(
        name, track, goal, Map.of(), 0, null, 0, 0, null, null, List.of(), verdict, null, 0, 0,
        null);
  }
}
