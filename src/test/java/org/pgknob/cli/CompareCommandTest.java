package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.RestoreFile;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionFolderFixtures;
import org.pgknob.session.SessionPlan;
import org.pgknob.session.SessionState;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.TrialResult;

/** pgknob compare against a real PostgreSQL 18: two tiny .conf files, 2 rounds of 1-s windows. */
class CompareCommandTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return Cli.run(out, err, args);
  }

  @Test
  void comparesConfFilesWithTheBaselineInterleavedAndResumes() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    String autoConfBefore = SessionPostgres.autoConf(cluster);
    Map<String, String> settingsBefore = SessionPostgres.settings(cluster);
    Path a = Files.writeString(dir.resolve("a.conf"), "work_mem = '16MB'\n");
    Path b = Files.writeString(dir.resolve("b.conf"), "shared_buffers = 256MB  # restart\n");
    Path runs = dir.resolve("runs");

    int exit =
        run(
            "compare",
            "--cluster-dir",
            cluster.clusterDir().toString(),
            "--config",
            a.toString(),
            "--config",
            b.toString(),
            "--rounds",
            "2",
            "--warehouses",
            "1",
            "--rampup",
            "1s",
            // 2-s windows: three 1-s baselines under a loaded CI machine (898, 541, 901 TPS) once
            // differed by more than half each and the session rightly stopped as too unstable.
            "--duration",
            "2s",
            "--out",
            runs.toString());
    assertEquals(0, exit, err::toString);
    SessionFolder folder = SessionFolder.open(onlySession(runs));
    assertTrue(out.toString().contains("TPS ratio (95% CI)"), out::toString);
    assertTrue(out.toString().contains("config:b.conf"), out::toString);

    Summary summary = folder.readSummary();
    assertEquals(
        List.of("defaults", "config:a.conf", "config:b.conf"),
        summary.results().stream().map(Summary.ResultRow::name).toList());
    assertEquals(Map.of("work_mem", "16MB"), summary.results().get(1).settings());
    assertEquals(Map.of("shared_buffers", "256MB"), summary.results().get(2).settings());
    // Short windows on a shared machine: a run that falls far below its round is left out with the
    // pairs that hold it (the console says which), so a row rests on 2 pairs or, after a drop, on
    // 1 and then has no interval; 2 rounds leave no room for another.
    for (Summary.ResultRow row : summary.results().subList(1, 3)) {
      int pairs = 2 - pairsLeftOut(out.toString() + "\n" + err.toString(), row.name());
      if (pairs == 2) {
        assertNotNull(row.tpsRatio(), () -> row + "\n" + out);
        assertEquals(2, row.tpsRatio().pairs(), row::toString);
        assertTrue(row.tpsRatio().low() < row.tpsRatio().estimate(), row::toString);
        assertTrue(row.tpsRatio().estimate() < row.tpsRatio().high(), row::toString);
      } else {
        assertNull(row.tpsRatio(), row::toString);
      }
    }
    SessionState state = folder.readState();
    assertEquals(SessionState.Status.FINISHED, state.status());
    assertTrue(state.plan().sweeps().isEmpty() && state.plan().bayes().isEmpty());
    assertEquals(
        List.of(Track.RELOAD, Track.RESTART),
        state.plan().validations().stream().map(SessionPlan.Validation::track).toList());
    List<TrialResult> trials = folder.trials().read().trials();
    assertEquals(state.plan().totalTrials(), trials.size());
    assertEquals(9, trials.size());
    assertTrue(Files.exists(folder.file("report.html")));
    assertEquals(autoConfBefore, SessionPostgres.autoConf(SessionPostgres.cluster()));
    assertEquals(
        java.util.Set.of(),
        SessionPostgres.differences(
            settingsBefore, SessionPostgres.settings(SessionPostgres.cluster())));
    assertEquals(
        RestoreFile.RESTORED, RestoreFile.read(folder.file(SessionFolder.RESTORE_FILE)).state());

    // Stopped after trial 7: resume measures the last round's candidates from session.json alone.
    stopAfter(folder, 7);
    assertEquals(0, run("resume", folder.dir().toString()), err::toString);
    List<TrialResult> resumed = folder.trials().read().trials();
    assertEquals(trials.size(), resumed.size());
    for (int i = 0; i < trials.size(); i++) {
      assertEquals(trials.get(i).label(), resumed.get(i).label());
      assertEquals(trials.get(i).settings(), resumed.get(i).settings());
    }
    assertEquals(Map.of("shared_buffers", "256MB"), resumed.get(7).settings());
    assertEquals(autoConfBefore, SessionPostgres.autoConf(SessionPostgres.cluster()));
  }

  @Test
  void refusesBadInputBeforeMeasuringAnything() throws Exception {
    Path runs = dir.resolve("runs");
    assertEquals(1, run("compare", "--out", runs.toString()));
    assertTrue(err.toString().startsWith("pgknob: nothing to compare"), err::toString);

    Path a = Files.writeString(dir.resolve("a.conf"), "work_mem = 16MB\n");
    assertEquals(1, run("compare", "--config", a.toString(), "--rounds", "1"));
    assertEquals(
        "pgknob: --rounds must be at least 2, but got 1 (give --rounds 3 or more for a useful"
            + " interval)\n",
        err.toString());

    Path bad = Files.writeString(dir.resolve("bad.conf"), "wrk_mem = 16MB\n");
    ManagedCluster cluster = SessionPostgres.cluster();
    assertEquals(
        1,
        run(
            "compare",
            "--cluster-dir",
            cluster.clusterDir().toString(),
            "--config",
            bad.toString(),
            "--out",
            runs.toString()));
    assertEquals(
        "pgknob: "
            + bad
            + " line 1: unknown setting 'wrk_mem': this server's pg_settings has no such name"
            + " (check the spelling; nothing was measured)\n",
        err.toString());
    try (Stream<Path> left = Files.list(runs)) {
      assertEquals(0, left.count(), "no session folder left behind");
    }

    // A session whose server was never put back: compare would take its settings for defaults.
    SessionFolder finished = SessionFolderFixtures.finished(dir.resolve("finished"));
    Files.writeString(
        finished.file(SessionFolder.RESTORE_FILE),
        "{\"identity\": {\"kind\": \"managed\", \"clusterDir\": \""
            + cluster.clusterDir()
            + "\"}, \"state\": \"applied\", \"snapshot\": null}",
        StandardCharsets.UTF_8);
    // started with --quiet-wait 0: the comparison on its server takes that, and says so
    new StartOptions(null, null, false, 300, 0).write(finished.dir());
    assertEquals(1, run("compare", finished.dir().toString(), "--out", runs.toString()));
    assertEquals(
        "compare: as session "
            + finished.id()
            + " started: --quiet-wait 0s\n"
            + "pgknob: session "
            + finished.id()
            + " left its server with changed settings (put them back first with: pgknob restore "
            + finished.file(SessionFolder.RESTORE_FILE)
            + ")\n",
        err.toString());
  }

  @Test
  void checksEveryFileAgainstTheServerAndTheSafetyRulesBeforeTheFirstTrial() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Map<String, String> before = SessionPostgres.settings(cluster);
    Path runs = dir.resolve("runs");
    Path good = Files.writeString(dir.resolve("good.conf"), "work_mem = '8MB'\n");
    Path unit = Files.writeString(dir.resolve("unit.conf"), "# a comment\nshared_buffers = 12XB\n");
    assertEquals(1, compare(cluster, runs, good, unit));
    assertEquals(
        "pgknob: "
            + unit
            + " line 2: shared_buffers must be an integer, optionally with a unit (B, kB, MB, GB,"
            + " TB), but got '12XB' (fix that line; nothing was measured)\n",
        err.toString());

    Path relation =
        Files.writeString(dir.resolve("wal.conf"), "min_wal_size = 4GB\nmax_wal_size = 1GB\n");
    assertEquals(1, compare(cluster, runs, relation));
    assertTrue(
        err.toString()
            .startsWith(
                "pgknob: config:wal.conf breaks the safety rules of safety-rules/default.yaml:"
                    + " relation 'min_wal_size <= max_wal_size' does not hold"),
        err::toString);

    Path memory = Files.writeString(dir.resolve("memory.conf"), "shared_buffers = 4TB\n");
    assertEquals(1, compare(cluster, runs, memory));
    assertTrue(
        err.toString().startsWith("pgknob: config:memory.conf breaks the safety rules")
            && err.toString().contains("predicted memory"),
        err::toString);
    assertEquals(1, err.toString().lines().count(), err::toString);

    try (Stream<Path> left = Files.list(runs)) {
      assertEquals(0, left.count(), "no session folder left behind");
    }
    assertEquals(
        java.util.Set.of(),
        SessionPostgres.differences(before, SessionPostgres.settings(SessionPostgres.cluster())));
  }

  private int compare(ManagedCluster cluster, Path runs, Path... files) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "compare",
                "--cluster-dir",
                cluster.clusterDir().toString(),
                "--out",
                runs.toString()));
    for (Path f : files) {
      args.add("--config");
      args.add(f.toString());
    }
    return run(args.toArray(String[]::new));
  }

  private static Path onlySession(Path runs) throws Exception {
    try (Stream<Path> dirs = Files.list(runs)) {
      List<Path> all = dirs.toList();
      assertEquals(1, all.size(), all::toString);
      return all.get(0);
    }
  }

  /** Leaves the first {@code n} trials and marks the session stopped, as a Ctrl-C there would. */
  private static void stopAfter(SessionFolder folder, int n) throws Exception {
    Path log = folder.file(SessionFolder.TRIALS_FILE);
    List<String> lines = new ArrayList<>(Files.readAllLines(log)).subList(0, n);
    Files.write(log, lines);
    folder.writeState(
        folder.readState().withStatus(SessionState.Status.STOPPED, "stopped", Instant.now()));
  }

  /**
   * How many of {@code candidate}'s pairs with the defaults the console's drop notes left out: its
   * own dropped run, or the defaults' (which costs every ratio to the defaults that round).
   */
  /**
   * The pairs a candidate lost to drops, from the line that ends validation ("left out with their
   * pairs, for a drop: config:a.conf's run of round 1, the defaults' run of round 2 (...)"): a run
   * is only recognised as a drop once its configuration has other runs, so a round's own note may
   * never have been printed for it.
   */
  private static int pairsLeftOut(String console, String candidate) {
    String marker = "for a drop: ";
    for (String line : console.split("\n")) {
      int at = line.indexOf(marker);
      if (at >= 0) {
        String drops = line.substring(at + marker.length());
        return occurrences(drops, candidate + "'s run of round ")
            + occurrences(drops, "the defaults' run of round ");
      }
    }
    return 0;
  }

  private static int occurrences(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }
}
