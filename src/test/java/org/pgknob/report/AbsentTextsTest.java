package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;

/**
 * A section with nothing to show says why once the session ended, and that its data is still to
 * come only while it runs: a finished default session plans no sweeps, and its report said "No
 * sweep trial has succeeded yet".
 */
class AbsentTextsTest {
  @TempDir Path tmp;

  @Test
  void aFinishedSessionThatPlannedNoSweepsSaysSoAndNothingReadsAsStillToCome() throws Exception {
    Path dir = withPlan(tmp.resolve("run"), "finished", true);
    ReportModel.Absent absent = AbsentTexts.of(SessionLoader.load(dir));
    assertTrue(absent.sweeps().startsWith("This session planned no sweeps"), absent::toString);
    assertEquals("No sweeps in this session.", absent.sweepRanking());
    // 8 Bayesian trials: one refused, one crashed, one stopped by the memory guard
    assertEquals("No model was fitted: 5 Bayesian trials were too few for one.", absent.model());

    String page = Files.readString(ReportWriter.write(dir), StandardCharsets.UTF_8);
    assertTrue(page.contains("This session planned no sweeps"), "the sweeps section says why");
    assertFalse(page.contains(" yet."), "a finished session's report reads as still running");
  }

  @Test
  void aRunningSessionSaysTheSectionsAreStillToCome() throws Exception {
    Path dir = withPlan(tmp.resolve("run"), "running", true);
    ReportModel.Absent absent = AbsentTexts.of(SessionLoader.load(dir));
    assertEquals("No sweep trial has succeeded yet.", absent.sweeps());
    assertEquals("No model yet: it is fitted during the Bayesian phase.", absent.model());
  }

  @Test
  void aComparisonSaysItSearchedNothing() throws Exception {
    Path dir = withPlan(tmp.resolve("run"), "finished", false);
    ReportModel.Absent absent = AbsentTexts.of(SessionLoader.load(dir));
    String nothing =
        "This session searched nothing: it measured the configurations it was given against the"
            + " defaults.";
    assertEquals(nothing, absent.sweeps());
    assertEquals(nothing, absent.convergence());
    assertEquals("No model: this session planned no Bayesian search.", absent.model());
    assertEquals("This session planned no Bayesian search.", absent.knobs());
  }

  /**
   * The recorded session with this status and a plan of no sweeps (and, with {@code bayes}, a
   * Bayesian track), its sweep trials gone (and without {@code bayes} its Bayesian ones too).
   */
  private static Path withPlan(Path dir, String status, boolean bayes) throws IOException {
    Fixtures.copy(dir);
    Path sessionFile = dir.resolve("session.json");
    ObjectNode session = (ObjectNode) Json.mapper().readTree(sessionFile.toFile());
    session.remove("state");
    session.put("status", status);
    ObjectNode plan = session.putObject("plan");
    plan.putArray("sweeps");
    ArrayNode tracks = plan.putArray("bayes");
    if (bayes) {
      tracks.addObject().put("track", "restart").put("iterations", 8);
    }
    Files.writeString(sessionFile, Json.mapper().writeValueAsString(session));
    Path trials = dir.resolve("trials.jsonl");
    List<String> kept =
        Files.readAllLines(trials, StandardCharsets.UTF_8).stream()
            .filter(l -> !l.contains("\"phase\":\"sweep\""))
            .filter(l -> bayes || !l.contains("\"phase\":\"bayes\""))
            .collect(Collectors.toList());
    Files.writeString(trials, String.join("\n", kept) + "\n", StandardCharsets.UTF_8);
    return dir;
  }
}
