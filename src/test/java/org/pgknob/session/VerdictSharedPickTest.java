package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;

/**
 * When several tracks pick the same configuration (the restart track finds nothing a restart needs,
 * both objectives prefer one point), it was validated once: the verdict says so on one line instead
 * of repeating the same figures under each name.
 */
class VerdictSharedPickTest {
  private static final Summary.Ratio WITHIN = new Summary.Ratio(1.0, 0.93, 1.08, 7);
  private static final Summary.Ratio GAIN = new Summary.Ratio(1.2, 1.1, 1.3, 7);

  @Test
  void tracksThatPickedOneConfigurationShareOneLine() {
    Map<String, String> same = Map.of("work_mem", "72MB");
    Verdict v =
        Verdict.of(
            facts(
                row("restart/tps", Track.RESTART, Goal.TPS, same, WITHIN),
                row("reload/tps", Track.RELOAD, Goal.TPS, same, WITHIN),
                row("reload/latency", Track.RELOAD, Goal.LATENCY, same, WITHIN),
                row("restart/latency", Track.RESTART, Goal.LATENCY, same, WITHIN)));
    List<String> lines =
        v.details().stream().filter(d -> d.contains("against the defaults: ")).toList();
    assertEquals(
        List.of(
            "restart/tps, reload/tps, reload/latency, restart/latency (one configuration) against"
                + " the defaults: 1.00x TPS (0.93 to 1.08), within noise over 7 pairs"),
        lines);
  }

  @Test
  void picksThatDifferInSettingsOrFiguresKeepALineEach() {
    Verdict v =
        Verdict.of(
            facts(
                row("restart/tps", Track.RESTART, Goal.TPS, Map.of("work_mem", "72MB"), GAIN),
                row("reload/tps", Track.RELOAD, Goal.TPS, Map.of("work_mem", "8MB"), GAIN),
                row(
                    "reload/latency",
                    Track.RELOAD,
                    Goal.LATENCY,
                    Map.of("work_mem", "8MB"),
                    WITHIN)));
    List<String> lines =
        v.details().stream().filter(d -> d.contains("against the defaults: ")).toList();
    assertEquals(3, lines.size(), lines.toString());
    assertEquals(
        List.of("restart/tps", "reload/tps", "reload/latency"),
        lines.stream().map(l -> l.substring(0, l.indexOf(" against"))).toList());
  }

  private static Summary.ResultRow row(
      String name, Track track, Goal goal, Map<String, String> settings, Summary.Ratio tps) {
    return new Summary.ResultRow(
        name, track, goal, settings, 2000, null, 4, 9, tps, tps, List.of(7), "", null, 0, 0, null);
  }

  private static VerdictFacts facts(Summary.ResultRow... rows) {
    return VerdictFactsFixture.of(List.of(rows));
  }
}
