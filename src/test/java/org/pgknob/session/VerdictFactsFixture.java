package org.pgknob.session;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;

/** The facts of a TPS session on a managed server with {@code rows} and nothing else to say. */
final class VerdictFactsFixture {
  private VerdictFactsFixture() {}

  static VerdictFacts of(List<Summary.ResultRow> rows) {
    return new VerdictFacts(
        "runs/x", Goal.TPS, rows, Map.of(), Set.of(), Map.of(), Optional.empty(), "", "", false);
  }
}
