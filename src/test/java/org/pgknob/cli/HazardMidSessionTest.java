package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.RestoreFile;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionState;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.TrialResult;

/**
 * A session whose server falls, mid-session, into a state no trial should run in: a replication
 * slot created after the session started, inactive and without a bound, keeps every segment of the
 * WAL the trials write. The session stops before its next trial, keeps no result for it, puts the
 * original settings back and says how to go on; once the slot is dropped, a resume runs that trial
 * and finishes.
 */
class HazardMidSessionTest {
  private static final String SLOT = "pgknob_left_mid_session";

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @AfterEach
  void dropTheSlot() throws Exception {
    sql(
        SessionPostgres.cluster(),
        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
            + SLOT
            + "'");
  }

  @Test
  void anInactiveSlotCreatedMidSessionStopsItBeforeTheNextTrialAndResumeFinishesOnceDropped()
      throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Map<String, String> before = SessionPostgres.alterSystemSettings(cluster);
    Path runs = dir.resolve("runs");
    AtomicBoolean created = new AtomicBoolean();
    // Once three trials are logged, a standby "leaves" its slot behind.
    CompletableFuture<Void> leaver =
        CompletableFuture.runAsync(
            () -> {
              try {
                while (loggedTrials(runs) < 3) {
                  Thread.sleep(20);
                }
                sql(cluster, "SELECT pg_create_physical_replication_slot('" + SLOT + "', true)");
                created.set(true);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });

    int exit =
        pgknob(
            "tune",
            "--budget",
            "13",
            "--tracks",
            "reload",
            "--server-wait",
            "7m",
            "--quiet-wait",
            "0",
            "--out",
            runs.toString());
    leaver.get(10, TimeUnit.SECONDS);
    assertTrue(created.get());
    assertEquals(ExitCodes.ERROR, exit, () -> out + "\n" + err);
    Matcher stop =
        Pattern.compile(
                "^pgknob: before trial (\\d+), the server has an inactive replication slot that"
                    + " keeps WAL without a bound")
            .matcher(err.toString());
    assertTrue(stop.find(), err::toString);
    int stoppedAt = Integer.parseInt(stop.group(1));
    assertTrue(
        err.toString().contains("'" + SLOT + "' (physical, ")
            && err.toString()
                .contains("then resume the session, which runs trial " + stoppedAt + " again"),
        err::toString);
    assertEquals(1, err.toString().strip().lines().count(), err::toString);

    SessionFolder folder = onlySession(runs);
    List<TrialResult> logged = folder.trials().read().trials();
    assertEquals(stoppedAt - 1, logged.size(), "the trial that found the slot is not kept");
    assertTrue(stoppedAt > 3, "the slot came after three trials: " + stoppedAt);
    assertEquals(SessionState.Status.FAILED, folder.readState().status());
    assertTrue(
        out.toString().contains("./pgknob resume " + folder.dir())
            && out.toString()
                .contains("go on from trial " + stoppedAt + " once the cause is fixed"),
        out::toString);
    assertEquals(before, SessionPostgres.alterSystemSettings(cluster), "the settings are back");
    assertTrue(RestoreFile.read(folder.file(SessionFolder.RESTORE_FILE)).isRestored());

    dropTheSlot();
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    assertEquals(ExitCodes.OK, pgknob("resume", folder.dir().toString()), err::toString);
    // The waits of the session's start, not resume's defaults (start-options.json).
    assertTrue(
        err.toString()
            .contains("resume: as the session started: --server-wait 420s --quiet-wait 0s"),
        err::toString);
    List<TrialResult> all = folder.trials().read().trials();
    assertEquals(logged, all.subList(0, logged.size()), "the earlier trials kept as they were");
    assertEquals(stoppedAt, all.get(logged.size()).trial(), "the resume ran the stopped trial");
    assertEquals(SessionState.Status.FINISHED, folder.readState().status());
    assertEquals(before, SessionPostgres.alterSystemSettings(cluster));
  }

  /** A reload-track session of 1 s windows through a command that answers at once. */
  private int pgknob(String... command) {
    List<String> args = new java.util.ArrayList<>(List.of(command));
    args.addAll(List.of("--cluster-dir", SessionPostgres.cluster().clusterDir().toString()));
    if (command[0].equals("tune")) {
      args.addAll(
          List.of(
              "--workload-cmd",
              "cat > /dev/null; echo '{\"value\": 100}'",
              "--rampup",
              "1s",
              "--duration",
              "1s"));
    }
    return Cli.run(out, err, args);
  }

  private static long loggedTrials(Path runs) throws Exception {
    if (!Files.isDirectory(runs)) {
      return 0;
    }
    try (Stream<Path> folders = Files.list(runs)) {
      for (Path session : folders.toList()) {
        Path trials = session.resolve(SessionFolder.TRIALS_FILE);
        if (Files.exists(trials)) {
          try (Stream<String> lines = Files.lines(trials)) {
            return lines.filter(l -> l.endsWith("}")).count();
          }
        }
      }
    }
    return 0;
  }

  private static SessionFolder onlySession(Path runs) throws Exception {
    try (Stream<Path> folders = Files.list(runs)) {
      return SessionFolder.open(folders.findFirst().orElseThrow());
    }
  }

  private static void sql(ManagedCluster cluster, String statement) throws Exception {
    try (Connection conn = cluster.connect("postgres");
        Statement st = conn.createStatement()) {
      st.execute(statement);
    }
  }
}
