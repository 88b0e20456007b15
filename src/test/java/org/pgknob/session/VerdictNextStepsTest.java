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
class VerdictNextStepsTest {
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

  @Test
  void aComparisonThatFoundNothingSuggestsItselfWithTwiceTheRounds() {
    Summary.Ratio within = new Summary.Ratio(1.02, 0.97, 1.07, 3);
    Summary.ResultRow pgtune = row("pgtune", within);
    Verdict v =
        Verdict.of(
            new VerdictFacts(
                "runs/c",
                Goal.TPS,
                List.of(pgtune, row("config:a.conf", within)),
                Map.of(),
                Set.of(),
                Map.of(),
                Optional.of(
                    MeasurementReport.DetectableGain.of(5, "12", 3, 0.10, 0.07, true)
                        .withNoLongerWindow(
                            "longer windows would not fit a session in this budget")),
                "--workload pgbench-tpcb",
                "",
                true));
    assertEquals(Verdict.Kind.NOTHING, v.kind(), v.headline());
    assertEquals(
        "Nothing beats the defaults beyond noise in this comparison: keep the server as it is.",
        v.headline());
    assertEquals(
        List.of("./pgknob compare runs/c --rounds 6"),
        v.toSummary().next().stream().map(Summary.NextStep::command).toList());
    assertEquals(
        "twice the rounds: gains down to 7% can be told from noise",
        v.toSummary().next().get(0).why());
    assertEquals(
        "gains under 10% cannot be told from noise with 5 s windows and 3 rounds",
        v.details().get(v.details().size() - 1));
  }

  private static Summary.ResultRow row(String name, Summary.Ratio tps) {
    return VerdictFactsFixture.row(name, null, Map.of("work_mem", "16MB"), tps, 0.10);
  }

  /** The apply step of a verdict that recommends PGTune-style (shared_buffers: a restart). */
  private static String applyStep(String serverOptions) {
    Summary.ResultRow pgtune =
        VerdictFactsFixture.row("pgtune", null, Map.of("shared_buffers", "6GB"), GAIN, 0.04);
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
                serverOptions,
                false));
    assertEquals(Verdict.Kind.PGTUNE, v.kind(), v.headline());
    return v.toSummary().next().stream()
        .map(Summary.NextStep::command)
        .filter(c -> c.startsWith("./pgknob apply"))
        .findFirst()
        .orElseThrow();
  }
}
