package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;

/**
 * The verdict's apply step names the server the session tuned: a managed cluster of another major
 * by --pg-version (it changed the default major's cluster), a server of the user's by --target with
 * the command that restarts it when a restart is needed.
 */
class VerdictApplyCommandTest {
  private static final Summary.Ratio GAIN = new Summary.Ratio(1.15, 1.10, 1.20, 7);

  @Test
  void aManagedClusterOfAnotherMajorIsAppliedToByItsPgVersion() {
    assertEquals("./pgknob apply --from pgtune.conf --pg-version 16", applyStep("--pg-version 16"));
  }

  @Test
  void theDefaultManagedClusterNeedsNoServerOption() {
    assertEquals("./pgknob apply --from pgtune.conf", applyStep(""));
  }

  @Test
  void aServerOfTheUsersIsNamedWithTheCommandThatRestartsIt() {
    assertEquals(
        "./pgknob apply --from pgtune.conf --target 'postgresql://app@db/shop' --restart-command"
            + " 'the command that restarts that server'",
        applyStep("--target 'postgresql://app@db/shop'"));
  }

  /** The apply step of a verdict that recommends PGTune-style (shared_buffers: a restart). */
  private static String applyStep(String serverOptions) {
    Summary.ResultRow pgtune =
        new Summary.ResultRow(
            "pgtune",
            null,
            null,
            Map.of("shared_buffers", "6GB"),
            2700,
            null,
            1.4,
            2.8,
            GAIN,
            new Summary.Ratio(1 / GAIN.estimate(), 1 / GAIN.high(), 1 / GAIN.low(), 7),
            List.of(7),
            "",
            null,
            0.04,
            0,
            null);
    Verdict v =
        Verdict.of(
            new VerdictFacts(
                "runs/x",
                Goal.TPS,
                List.of(pgtune),
                Map.of(),
                Set.of("shared_buffers"),
                Map.of(),
                Optional.empty(),
                serverOptions,
                serverOptions));
    assertEquals(Verdict.Kind.PGTUNE, v.kind(), v.headline());
    return v.toSummary().next().stream()
        .map(Summary.NextStep::command)
        .filter(c -> c.startsWith("./pgknob apply"))
        .findFirst()
        .orElseThrow();
  }
}
