package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Track;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.ServerSetting;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * Both tracks through --workload-cmd against a real PostgreSQL 18, with the deterministic workload
 * of {@link SessionRaceTest} (the defaults 1000 TPS, anything else 1200): the reload track races
 * its first proposals until one is its incumbent, and the restart track's first Bayesian trial is
 * that configuration, since a track that may restart the server may also apply whatever a reload
 * does.
 */
class RestartStartsFromReloadTest {
  private static final String WORKLOAD =
      "s=$(cat); sleep 1; if [ \"$s\" = '{}' ]; then echo '{\"value\": 1000, \"latency_ms\": 4}';"
          + " else echo '{\"value\": 1200, \"latency_ms\": 3.3}'; fi";

  @TempDir Path runs;

  @Test
  void theRestartTracksFirstBayesianProposalIsTheReloadTracksBest() throws Exception {
    Map<String, Object> m = new LinkedHashMap<>(TinyInputs.map("40", List.of("reload", "restart")));
    m.put("workload", Map.of("name", "command", "command", WORKLOAD));
    ManagedCluster cluster = SessionPostgres.cluster();
    SessionFolder folder = SessionFolder.create(runs, Clock.systemUTC());
    cluster.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));
    TuningSession session =
        TuningSession.create(
            folder,
            SessionInputs.fromMap(m),
            cluster,
            new ProgressPrinter(new PrintWriter(new StopAfterFirstRestartBayes(), true), false),
            Progress.SILENT,
            Clock.systemUTC());
    assertThrows(StopAfterFirstRestartBayes.Reached.class, session::run);
    cluster.restoreOriginals();

    List<TrialResult> trials = folder.trials().read().trials();
    String log =
        trials.stream()
            .map(t -> t.trial() + " " + t.label() + " " + t.settings())
            .collect(Collectors.joining("\n"));
    TrialResult firstRestart =
        trials.stream()
            .filter(t -> t.phase() == Phase.BAYES && t.label().startsWith("bayes restart "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no restart Bayesian proposal:\n" + log));
    assertFalse(firstRestart.settings().isEmpty(), log);
    // the reload track's race winner when it has one, else its model's best: one of its proposals,
    // which the restart proposal holds whole; knobs only a restart applies may be set beside it
    // (every Bayesian proposal sets each knob of its search, and wal_buffers' default -1, "auto",
    // lies outside the space's 1MB to 256MB)
    Optional<Integer> winner =
        new MeasuredSlots(folder.readState().plan()).incumbent(Track.RELOAD, trials);
    List<TrialResult> reloadBest =
        trials.stream()
            .filter(t -> t.phase() == Phase.BAYES && t.track() == Track.RELOAD)
            .filter(t -> winner.isEmpty() || t.trial() == winner.get())
            .filter(t -> !t.settings().isEmpty())
            .filter(t -> holds(firstRestart.settings(), t.settings()))
            .toList();
    assertFalse(reloadBest.isEmpty(), "the reload track's best, whole:\n" + log);
    Map<String, Boolean> restartOnly =
        cluster.settings().stream()
            .collect(Collectors.toMap(ServerSetting::name, ServerSetting::needsRestart));
    for (String knob : firstRestart.settings().keySet()) {
      if (!reloadBest.get(0).settings().containsKey(knob)) {
        assertTrue(restartOnly.get(knob), knob + " is not a reload setting:\n" + log);
      }
    }
  }

  private static boolean holds(Map<String, String> all, Map<String, String> part) {
    return all.entrySet().containsAll(part.entrySet());
  }

  /**
   * A console that ends the session where the trial after the restart track's first Bayesian
   * proposal starts ("[n/N] bayes restart k/K", not a reference or race run), before it touches the
   * server: the rest of the session is not what this test is about.
   */
  private static final class StopAfterFirstRestartBayes extends Writer {
    static final class Reached extends RuntimeException {
      Reached() {
        super("stopped by the test after the restart track's first Bayesian trial");
      }
    }

    private final StringBuilder text = new StringBuilder();

    @Override
    public void write(char[] chars, int offset, int length) {
      text.append(chars, offset, length);
      int first = text.indexOf("] bayes restart ");
      if (first >= 0 && text.indexOf("\n[", first) >= 0) {
        throw new Reached();
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
