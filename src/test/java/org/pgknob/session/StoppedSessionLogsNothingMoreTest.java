package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * Ctrl-C or SIGTERM while a trial runs: the shutdown hook marks the session stopped and restores
 * the server while the session's thread runs on. The trial that was running measured the restore (a
 * restart ends the workload's connections, and a --workload-cmd run sees the originals), so it must
 * not be logged: a resume would take a crash or a wrong figure for the configuration's. Here the
 * workload's first run with settings waits at a gate; the test stops the session as the hook would,
 * then opens the gate.
 */
class StoppedSessionLogsNothingMoreTest {
  @TempDir Path dir;

  @Test
  void theTrialRunningWhenTheSessionIsStoppedIsNeitherLoggedNorPrintedAndTheThreadEnds()
      throws Exception {
    Path running = dir.resolve("running");
    Path gate = dir.resolve("gate");
    // Runs of the defaults answer at once; the first run with settings waits for the gate.
    String workload =
        "s=$(cat); if [ \"$s\" != '{}' ] && [ ! -e '"
            + gate
            + "' ]; then touch '"
            + running
            + "'; while [ ! -e '"
            + gate
            + "' ]; do sleep 0.1; done; fi; echo '{\"value\": 1000, \"latency_ms\": 4}'";
    Map<String, Object> m = new LinkedHashMap<>(TinyInputs.map("21", List.of("reload")));
    m.put("workload", Map.of("name", "command", "command", workload));

    ManagedCluster cluster = SessionPostgres.cluster();
    SessionFolder folder = SessionFolder.create(dir.resolve("runs"), Clock.systemUTC());
    cluster.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));
    StringWriter out = new StringWriter();
    TuningSession session =
        TuningSession.create(
            folder,
            SessionInputs.fromMap(m),
            cluster,
            new ProgressPrinter(new PrintWriter(out, true), false),
            Progress.SILENT,
            Clock.systemUTC());
    CompletableFuture<Void> thread = CompletableFuture.runAsync(session::run);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(running)) {
        assertTrue(!thread.isDone(), "the session ended before a run with settings: " + out);
        assertTrue(System.nanoTime() < deadline, "no run with settings started: " + out);
        Thread.sleep(50);
      }
      int loggedBefore = folder.trials().read().trials().size();
      session.stopBySignal(); // what the shutdown hook does first
      cluster.restoreOriginals(); // then the hook restores
      String printedAtStop = out.toString();
      Files.createFile(gate);

      ExecutionException ended =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class, () -> thread.get(60, TimeUnit.SECONDS));
      assertInstanceOf(StoppedBySignalException.class, ended.getCause(), out.toString());
      List<TrialResult> logged = folder.trials().read().trials();
      assertEquals(loggedBefore, logged.size(), "the cut trial was logged: " + logged);
      assertTrue(logged.stream().allMatch(t -> t.settings().isEmpty()), logged.toString());
      SessionState state = folder.readState();
      assertEquals(SessionState.Status.STOPPED, state.status());
      assertEquals(loggedBefore, state.progress().trialsDone(), "a resume starts at the cut trial");
      assertEquals(printedAtStop, out.toString(), "the session's thread printed after the stop");
    } finally {
      if (!Files.exists(gate)) {
        Files.createFile(gate);
      }
      cluster.restoreOriginals();
    }
  }
}
