package org.pgknob.session;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;

/** The facts of a TPS session on a managed server with {@code rows} and nothing else to say. */
final class VerdictFactsFixture {
  private VerdictFactsFixture() {}

  static VerdictFacts of(List<Summary.ResultRow> rows) {
    return new VerdictFacts(
        "runs/x", Goal.TPS, rows, Map.of(), Set.of(), Map.of(), Optional.empty(), "", "", false);
  }

  /**
   * A validated row on TPS: {@code tps} against the defaults (its latency ratio the inverse), one
   * run numbered as its pairs, 2700 TPS, 1.4 ms; a pick of {@code track} on TPS, or a row without
   * track (pgtune, a compared file) when it is null.
   */
  static Summary.ResultRow row(
      String name,
      Track track,
      Map<String, String> settings,
      Summary.Ratio tps,
      double detectableGain) {
    return new Summary.ResultRow(
        name,
        track,
        track == null ? null : Goal.TPS,
        settings,
        2700,
        null,
        1.4,
        2.8,
        tps,
        new Summary.Ratio(1 / tps.estimate(), 1 / tps.high(), 1 / tps.low(), tps.pairs()),
        List.of(tps.pairs()),
        "",
        null,
        detectableGain,
        0,
        null);
  }
}
