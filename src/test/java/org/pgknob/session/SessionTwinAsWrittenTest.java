package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * The latency pick that is the validated tps pick is known as its twin when the tps pick was
 * validated with its values as a DBA writes them. A short session through --workload-cmd against a
 * real PostgreSQL 18: 3 baselines, two reload-track proposals, validation of reload/tps and
 * PGTune-style. The synthetic workload makes the second proposal (run 5, whose values the search's
 * design leaves unround) the best for both TPS and latency, so the search's best is the same
 * configuration for both objectives; only reload/tps is validated.
 */
class SessionTwinAsWrittenTest {
  @TempDir Path runs;

  private SessionInputs inputs(Path counter) {
    String workload =
        "s=$(cat); f="
            + counter
            + "; n=$(( $(cat $f 2>/dev/null || echo 0) + 1 )); echo $n > $f;"
            + " k=$(( n * 7919 % 13 - 6 ));"
            + " if [ \"$s\" = '{}' ]; then b=1000; l=44; elif [ $n -eq 5 ]; then b=1300; l=30;"
            + " else b=1100; l=40; fi;"
            + " echo \"{\\\"value\\\": $(( b * (100 + k) / 100 )),"
            + " \\\"latency_ms\\\": $(( l / 10 )).$(( l % 10 ))}\"";
    Map<String, Object> m = new LinkedHashMap<>(TinyInputs.of("30", List.of("reload")).toMap());
    m.put("workload", Map.of("name", "command", "command", workload));
    return SessionInputs.fromMap(m);
  }

  private static SessionPlan plan() {
    return new SessionPlan(
        3,
        List.of(),
        List.of(new SessionPlan.BayesTrack(Track.RELOAD, 2)),
        List.of(
            new SessionPlan.Validation("reload/tps", Track.RELOAD),
            new SessionPlan.Validation("pgtune", Track.RESTART)),
        3,
        null,
        new SessionPlan.Validating(Goal.TPS, 0.06, 3, 1));
  }

  @Test
  void theUnvalidatedLatencyPickIsTheValidatedTpsPickWhoseValuesWereRounded() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    SessionFolder folder = SessionFolder.create(runs, Clock.systemUTC());
    cluster.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));
    StringWriter out = new StringWriter();
    Summary summary =
        TuningSession.create(
                folder,
                inputs(runs.resolve("runs-counted")),
                plan(),
                cluster,
                new ProgressPrinter(new PrintWriter(out, true), false),
                Progress.SILENT,
                Clock.systemUTC())
            .run();
    List<TrialResult> trials = folder.trials().read().trials();
    String log =
        trials.stream().map(t -> t.label() + " " + t.settings()).collect(Collectors.joining("\n"))
            + "\n"
            + out;
    TrialResult best = trials.get(4);
    assertEquals(Phase.BAYES, best.phase(), log);
    TrialResult validated =
        trials.stream()
            .filter(t -> t.phase() == Phase.VALIDATION && t.label().endsWith(" reload/tps"))
            .findFirst()
            .orElseThrow();
    // the precondition: validation measured the search's best with its values rounded
    assertNotEquals(best.settings(), validated.settings(), log);

    Summary.ResultRow tps = row(summary, "reload/tps");
    Summary.ResultRow latency = row(summary, "reload/latency");
    assertTrue(
        latency.verdict().contains("the same configuration as reload/tps"),
        latency.verdict() + "\n" + log);
    assertFalse(latency.verdict().contains("not validated"), latency.verdict());
    assertEquals(tps.settings(), latency.settings());
    assertEquals(tps.tpsRatio(), latency.tpsRatio());
  }

  private static Summary.ResultRow row(Summary summary, String name) {
    return summary.results().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }
}
