package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ManagedCluster;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionInputs;
import org.pgknob.session.SessionPlan;
import org.pgknob.session.SessionState;
import org.pgknob.session.TinyInputs;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;

/**
 * Bad input to tune and resume: one line naming the cause and the fix, exit code 1, no session
 * folder left behind, and the server untouched.
 */
class SessionBadInputTest {
  @TempDir Path runs;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return Cli.run(out, err, args);
  }

  /**
   * tune with tiny inputs plus {@code extra}, writing under {@code runs/out}; 2-s windows unless
   * {@code extra} gives --duration (picocli takes an option once).
   */
  private int tune(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "tune",
                "--warehouses",
                "1",
                "--rampup",
                "1s",
                "--out",
                runs.resolve("out").toString()));
    args.addAll(List.of(extra));
    if (!args.contains("--duration")) {
      args.addAll(List.of("--duration", "2s"));
    }
    return run(args.toArray(String[]::new));
  }

  private boolean noSessionFolderLeft() throws Exception {
    Path outDir = runs.resolve("out");
    if (!Files.exists(outDir)) {
      return true;
    }
    try (var entries = Files.list(outDir)) {
      return entries.findAny().isEmpty();
    }
  }

  @Test
  void budgetTooSmallSaysTheMinimum() throws Exception {
    assertEquals(1, tune("--budget", "5"));
    assertEquals(
        "pgknob: budget of 5 trials is too small: a session needs at least 16 (3 baseline runs,"
            + " 1 trial, 3 validation rounds of the defaults, each track's pick and PGTune-style:"
            + " the fewest that can decide a comparison) (give --budget 16 or more)\n",
        err.toString());
    assertTrue(noSessionFolderLeft());

    assertEquals(1, tune("--budget", "30s"));
    assertTrue(err.toString().contains("a session needs at least 16"), err.toString());
    assertTrue(err.toString().contains("give --budget "), err.toString());
    assertTrue(noSessionFolderLeft());

    assertEquals(1, tune("--budget", "lots"));
    assertTrue(
        err.toString().startsWith("pgknob: budget 'lots' is not understood"), err.toString());
  }

  @Test
  void aQuietWaitOutOfItsRangeIsRefusedBeforeAnythingRuns() throws Exception {
    assertEquals(1, tune("--quiet-wait", "2h"));
    assertEquals(
        "pgknob: --quiet-wait must be between 0 and 1h, but got 7200 s (give how long a disturbed"
            + " trial may wait for a quiet host, e.g. --quiet-wait 2m, or 0 to keep disturbed"
            + " windows)\n",
        err.toString());
    assertTrue(noSessionFolderLeft());
  }

  /** tune --duration auto with tiny inputs plus {@code extra}. */
  private int auto(String... extra) {
    List<String> args = new ArrayList<>(List.of(extra));
    args.addAll(List.of("--duration", "auto"));
    return tune(args.toArray(String[]::new));
  }

  @Test
  void durationAutoWithABudgetTooSmallForOneComparisonNamesTheSmallestThatWorks() throws Exception {
    assertEquals(1, auto("--budget", "3m"));
    String line = err.toString();
    assertTrue(line.startsWith("pgknob: --duration auto starts with 15 s windows"), line);
    assertTrue(line.contains("deciding a single comparison takes at least 16"), line);
    // 16 trials of the estimated 26 s (1 warehouse, 1-s ramp-up, 15-s windows) need 7 minutes.
    assertTrue(line.endsWith("(give --budget 7m or more)\n"), line);
    assertEquals(1, line.lines().count(), line);
    assertTrue(noSessionFolderLeft());

    // A minute less is refused the same way: the budget named is the smallest.
    assertEquals(1, auto("--budget", "6m"));
    assertTrue(err.toString().contains("(give --budget 7m or more)"), err.toString());
  }

  @Test
  void anUnreadableDurationNamesTheFormsItTakes() throws Exception {
    assertEquals(2, tune("--duration", "soon"));
    assertTrue(
        err.toString()
            .contains("'soon' is not a duration: give 90 or 90s, 2m, 1h, or auto (tune only)"),
        err.toString());
    assertEquals(2, run("tprocc", "run", "--duration", "auto"));
    assertTrue(
        err.toString().contains("'--duration': auto is for tune, which chooses the window"),
        err.toString());
    assertTrue(noSessionFolderLeft());
  }

  @Test
  void conflictingOrUnknownOptionsAreRefusedBeforeAnythingStarts() throws Exception {
    assertEquals(1, tune("--tracks", "reload,fast"));
    assertEquals(
        "pgknob: unknown track 'fast' (--tracks takes reload, restart or reload,restart)\n",
        err.toString());
    assertEquals(1, tune("--apply", "always"));
    assertEquals(
        "pgknob: --apply takes none or best, but got 'always' (give --apply best or leave it out)\n",
        err.toString());
    assertEquals(1, tune("--objective", "speed"));
    assertEquals(
        "pgknob: unknown objective 'speed' (--objective takes tps or latency)\n", err.toString());
    assertEquals(1, tune("--surrogate", "svm"));
    assertEquals("pgknob: unknown surrogate 'svm' (choose gp or rf)\n", err.toString());
    assertEquals(
        1,
        tune(
            "--budget",
            "16",
            "--target",
            "jdbc:postgresql://127.0.0.1:1/postgres",
            "--cluster-dir",
            runs.resolve("cluster").toString()));
    assertTrue(err.toString().contains("give one of them"), err.toString());
    assertTrue(noSessionFolderLeft());
  }

  @Test
  void repeatedTrackIsOneTrack() {
    SessionInputs inputs = TinyInputs.of("12", List.of("restart", "restart"));
    assertEquals(List.of(Track.RESTART), inputs.tracks());
  }

  @Test
  void resumeRefusesAFolderThatIsNotASession() throws Exception {
    Files.writeString(runs.resolve("notes.txt"), "a folder of the user's\n");
    assertEquals(1, run("resume", runs.toString()));
    assertEquals(
        "pgknob: "
            + runs
            + " is not a pgknob session: it has no session.json (give a folder made by pgknob"
            + " tune, such as runs/2026-11-29T22-10-00)\n",
        err.toString());

    assertEquals(1, run("resume", runs.resolve("missing").toString()));
    assertTrue(err.toString().contains("is not a folder"), err.toString());

    Files.writeString(runs.resolve(SessionFolder.SESSION_FILE), "{\"id\": ");
    assertEquals(1, run("resume", runs.toString()));
    assertTrue(err.toString().contains("session.json is damaged"), err.toString());
  }

  /**
   * What a kill -9 during the setup leaves: the session's folder, empty. Each command that reads a
   * session says so and how to go on; before, they said it was "not a pgknob session".
   */
  @Test
  void anEmptySessionFolderIsNamedAsOneLeftByAStopDuringSetup() throws Exception {
    Path empty = Files.createDirectory(runs.resolve("2026-12-07T17-28-13"));
    for (List<String> command :
        List.of(List.of("resume"), List.of("report"), List.of("export"), List.of("compare"))) {
      List<String> args = new ArrayList<>(command);
      args.add(empty.toString());
      assertEquals(1, run(args.toArray(String[]::new)), command + ": " + err);
      assertEquals(
          "pgknob: "
              + empty
              + " is empty: a session stopped during its setup (kill -9, a crash) recorded nothing"
              + " there, and changed no setting of the server (remove it (rm -r "
              + empty
              + ") and start again with pgknob tune)\n",
          err.toString(),
          command.toString());
    }
  }

  @Test
  void resumeRefusesAFinishedSession() throws Exception {
    Path dir = sessionWith(SessionState.Status.FINISHED, "18.6", "/var/lib/postgresql/data");
    assertEquals(1, run("resume", dir.toString()));
    assertEquals(
        "pgknob: session "
            + dir.getFileName()
            + " already finished; there is nothing to resume (see its results with pgknob export "
            + dir
            + ", or start a new session with pgknob tune)\n",
        err.toString());
  }

  @Test
  void resumeRefusesATargetWhoseDataFolderChanged() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    String autoConfBefore = SessionPostgres.autoConf(cluster);
    String version = cluster.facts().serverVersion();
    Path dir = sessionWith(SessionState.Status.STOPPED, version, "/elsewhere/data");
    assertEquals(
        1, run("resume", "--cluster-dir", cluster.clusterDir().toString(), dir.toString()));
    assertTrue(
        err.toString()
            .contains(
                "the target changed since session "
                    + dir.getFileName()
                    + " started: data folder /elsewhere/data then, "
                    + cluster.dataDir()
                    + " now (resume against the same server"),
        err.toString());
    assertEquals(autoConfBefore, SessionPostgres.autoConf(cluster));
    assertEquals(SessionState.Status.STOPPED, SessionFolder.open(dir).readState().status());
    assertEquals(0, SessionFolder.open(dir).trials().read().trials().size());
  }

  /** A session folder whose session.json says {@code status}, started on this server. */
  private Path sessionWith(SessionState.Status status, String version, String dataDirectory) {
    SessionFolder folder = SessionFolder.create(runs.resolve("runs"), java.time.Clock.systemUTC());
    SessionInputs inputs = TinyInputs.of("12", List.of("reload", "restart"));
    SessionPlan plan =
        new SessionPlan(
            3,
            List.of(),
            List.of(new SessionPlan.BayesTrack(Track.RELOAD, 1)),
            List.of(new SessionPlan.Validation("reload/tps", Track.RELOAD)),
            3);
    folder.writeState(
        new SessionState(
            folder.id(),
            "test",
            status,
            Instant.now(),
            Instant.now(),
            inputs.toMap(),
            1,
            new Summary.Machine(2, 1L << 30, "ssd", "Linux"),
            version,
            "test server",
            dataDirectory,
            folder.file(SessionFolder.RESTORE_FILE).toString(),
            java.util.Map.of(),
            plan,
            new SessionState.Progress("", 0, plan.totalTrials(), "")));
    assertFalse(Files.exists(folder.file(SessionFolder.TRIALS_FILE)));
    return folder.dir();
  }
}
