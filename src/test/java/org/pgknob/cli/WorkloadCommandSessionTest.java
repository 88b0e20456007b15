package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Goal;
import org.pgknob.server.ManagedCluster;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionPlan;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * A whole session with the README's minimal benchmark command, which prints only {@code {"value":
 * N}}: no latency, no NOPM. It runs in a child JVM whose environment holds PGPASSWORD (the password
 * of the server named with --target), since only a real environment variable can show whether the
 * command inherits it. And a session with a wall-time budget whose command answers at once: its
 * validation rounds are re-counted from the time its quick trials left, and its trial lines count
 * them in the time left from the start.
 */
class WorkloadCommandSessionTest {
  @TempDir Path dir;

  @Test
  void quickTrialsUnderAWallTimeBudgetLeaveValidationTheRoundsTheirTimeHolds() throws Exception {
    // The plan assumes 11 s a trial (a reset, a restart, 1 s ramp-up and window): 2m30s are 13
    // trials, 3 of them validation rounds. The command answers at once, so the search leaves
    // nearly all of the time and validation may take far more rounds; its ratios are exactly 1 (a
    // constant), decided after the fewest, so the session stays short.
    QuickSession session = quickSession("cat > /dev/null; echo '{\"value\": 100}'", "2m30s");
    String log = session.log();
    assertEquals(0, session.exit(), log);
    Matcher recount =
        Pattern.compile("validation: up to (\\d+) rounds \\(the plan had 3\\): they fit the ")
            .matcher(log);
    assertTrue(recount.find(), log);
    int rounds = Integer.parseInt(recount.group(1));
    assertTrue(rounds > 3, log);

    SessionPlan plan = session.folder().readState().plan();
    assertEquals(rounds, plan.validationPairs(), "session.json holds the count a resume reads");
    assertEquals(3, plan.validating().wallTime().plannedRounds());
    List<TrialResult> validation =
        session.folder().trials().read().trials().stream()
            .filter(t -> t.phase() == Phase.VALIDATION)
            .toList();
    assertTrue(
        validation.get(0).label().startsWith("validation round 1/" + rounds + " "),
        validation.get(0).label());
    assertTrue(log.contains("validation decided after 3 of at most " + rounds + " rounds"), log);

    // From the second trial on, the time left counts the rounds the quick trials will buy, not
    // the plan's 12 trials of a few seconds each (about 40 s).
    Matcher second = Pattern.compile("\\[2/13\\] .*, about (\\d+) (s|min) left\\)").matcher(log);
    assertTrue(second.find(), log);
    int left = Integer.parseInt(second.group(1)) * (second.group(2).equals("min") ? 60 : 1);
    assertTrue(left >= 90, second.group() + "\n" + log);
  }

  @Test
  void aLatencyPickThatIsTheDefaultsSaysNoChangeFoundAndShowsNoRunsOfItsOwn() throws Exception {
    // Every configuration but the defaults is slower: each pick is the defaults. An unvalidated
    // latency row once showed the baseline's runs as "not validated ... best of the search".
    QuickSession session =
        quickSession(
            "s=$(cat); if [ \"$s\" = '{}' ]; then echo '{\"value\": 100, \"latency_ms\": 1.0}';"
                + " else echo '{\"value\": 90, \"latency_ms\": 2.0}'; fi",
            "18");
    assertEquals(0, session.exit(), session.log());
    for (var row : session.folder().readSummary().results()) {
      if (row.track() != null) {
        assertTrue(row.settings().isEmpty(), row.toString());
        assertTrue(row.verdict().startsWith("no change found"), row.name() + ": " + row.verdict());
        if (row.objective() == Goal.LATENCY) {
          assertTrue(row.trials().isEmpty(), row.toString());
        }
      }
    }
  }

  /**
   * A latency session whose command reports no latency stops at its first run, saying so: it ran
   * its whole budget and then failed with an internal error ("value 1 must be positive and finite,
   * but got 0.0").
   */
  @Test
  void aLatencySessionWhoseCommandReportsNoLatencyStopsAtItsFirstRunSayingWhy() throws Exception {
    QuickSession session =
        quickSession("cat > /dev/null; echo '{\"value\": 100}'", "13", "--objective", "latency");
    assertEquals(1, session.exit(), session.log());
    assertTrue(
        session
            .log()
            .contains(
                "pgknob: --objective latency, but the workload reported no latency (trial 1 gave a"
                    + " value without \"latency_ms\") (make the command print \"latency_ms\""
                    + " with its value, or tune --objective tps)"),
        session.log());
    assertFalse(session.log().contains("internal error"), session.log());
    assertFalse(session.log().contains("[2/13]"), session.log());
    // not logged, so a resume with the command fixed runs it again and has no 0 ms to judge by
    assertTrue(session.log().contains("go on from trial 1 once the cause is fixed"), session.log());
  }

  /** What a quick session left: its exit code, its console (out and err) and its folder. */
  private record QuickSession(int exit, String log, SessionFolder folder) {}

  /** A reload-track session of 1 s windows through {@code command}, in this JVM. */
  private QuickSession quickSession(String command, String budget, String... extra)
      throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Path runs = dir.resolve("runs");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "tune",
                "--cluster-dir",
                cluster.clusterDir().toString(),
                "--workload-cmd",
                command,
                "--budget",
                budget,
                "--tracks",
                "reload",
                "--rampup",
                "1s",
                "--duration",
                "1s",
                "--out",
                runs.toString()));
    args.addAll(List.of(extra));
    int exit = Cli.run(out, err, args.toArray(String[]::new));
    String log = out + "\n" + err;
    if (exit != 0) {
      return new QuickSession(exit, log, null);
    }
    try (var folders = Files.list(runs)) {
      return new QuickSession(exit, log, SessionFolder.open(folders.findFirst().orElseThrow()));
    }
  }

  /**
   * README's own example prints {@code {"value": N}} alone: the session finishes, and says of
   * latency that the workload reports none, where its trials' 0 ms made every latency pick the
   * defaults ("no change found"), the noise line "not known", the baseline "0.00 ms".
   */
  @Test
  void aCommandPrintingOnlyAValueFinishesSaysLatencyIsNotMeasuredAndNeverSeesPgpassword()
      throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    String password = Files.readString(cluster.passwordFile()).strip();
    Path seen = dir.resolve("seen-by-command");
    Path runs = dir.resolve("runs");
    String command =
        "cat > /dev/null; printf '%s\\n' \"${PGPASSWORD:-unset}\" >> '"
            + seen
            + "'; echo '{\"value\": 100}'";
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "tune",
                "--target",
                cluster.jdbcUrl("postgres"),
                "--user",
                "postgres",
                "--workload-cmd",
                command,
                "--budget",
                "13",
                "--tracks",
                "reload",
                "--rampup",
                "1s",
                "--duration",
                "1s",
                "--out",
                runs.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("child.log").toFile());
    builder.environment().put("PGPASSWORD", password);
    Process child = builder.start();
    assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the session took over 5 minutes");
    String log = Files.readString(dir.resolve("child.log"));
    assertEquals(0, child.exitValue(), log);

    List<String> lines = Files.readAllLines(seen);
    // Counted, not printed: a failure message must not show the password either.
    long leaked = lines.stream().filter(l -> !l.equals("unset")).count();
    assertEquals(0, leaked, "the command saw PGPASSWORD in " + leaked + " of " + lines.size());

    Path session;
    try (var folders = Files.list(runs)) {
      session = folders.findFirst().orElseThrow();
    }
    assertTrue(Files.exists(session.resolve(SessionFolder.SUMMARY_FILE)), log);
    assertTrue(Files.exists(session.resolve("report.html")), log);
    long trials = Files.readAllLines(session.resolve("trials.jsonl")).size();
    assertTrue(trials >= 7, log);
    assertEquals(
        trials,
        lines.size(),
        "the command ran once per trial: "
            + Files.readString(session.resolve("trials.jsonl"))
                .replaceAll("\"timeline\".{0,200}", ""));
    String summary = Files.readString(session.resolve(SessionFolder.SUMMARY_FILE));
    assertTrue(summary.contains("\"tpsRatio\""), summary);
    assertTrue(log.contains("defaults"), log);
    assertTrue(
        log.contains("\n  reload/latency: not measured: the workload reports no latency\n"), log);
    assertTrue(
        log.contains("\nnoise (latency): not measured: the workload reports no latency\n"), log);
    assertFalse(log.contains("reload/latency: no change found"), log);
    assertFalse(log.contains("average latency"), log);
    assertTrue(
        summary.contains("\"verdict\" : \"not measured: the workload reports no latency\""),
        summary);
  }
}
