package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.session.SessionFolder;
import org.pgknob.testing.SessionPostgres;

/**
 * A whole session with the README's minimal benchmark command, which prints only {@code {"value":
 * N}}: no latency, no NOPM. It runs in a child JVM whose environment holds PGPASSWORD (the password
 * of the server named with --target), since only a real environment variable can show whether the
 * command inherits it.
 */
class WorkloadCommandSessionTest {
  @TempDir Path dir;

  @Test
  void aCommandPrintingOnlyAValueFinishesTheSessionAndNeverSeesPgpassword() throws Exception {
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
  }
}
