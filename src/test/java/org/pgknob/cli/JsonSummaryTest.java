package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.runs.Summary;
import org.pgknob.server.ManagedCluster;
import org.pgknob.session.SessionFolder;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;

/**
 * {@code tune --json} and {@code compare --json} against a real PostgreSQL 18 with a benchmark
 * command that reports a constant: standard output holds the final summary.json alone (verdict and
 * results table), the progress goes to standard error.
 */
class JsonSummaryTest {
  private static final String COMMAND = "cat > /dev/null; echo '{\"value\": 100}'";

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return Cli.run(out, err, args);
  }

  @Test
  void tuneAndCompareWithJsonPrintTheSummaryOnStdoutAndTheProgressOnStderr() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    Path runs = dir.resolve("runs");
    int exit =
        run(
            "tune",
            "--json",
            "--cluster-dir",
            cluster.clusterDir().toString(),
            "--workload-cmd",
            COMMAND,
            "--budget",
            "13",
            "--tracks",
            "reload",
            "--out",
            runs.toString());
    assertEquals(0, exit, err::toString);
    Summary printed = Json.mapper().readValue(out.toString(), Summary.class);
    SessionFolder session = SessionFolder.open(only(runs, List.of()));
    assertEquals(
        Files.readString(session.file(SessionFolder.SUMMARY_FILE)).strip(),
        out.toString().strip(),
        "stdout is summary.json, nothing else");
    assertEquals("nothing", printed.verdict().kind(), "a constant beats nothing");
    assertTrue(printed.verdict().next().get(0).command().startsWith("./pgknob tune"));
    assertTrue(err.toString().contains("== verdict"), err::toString);
    assertTrue(err.toString().contains("TPS ratio (95% CI)"), "the table on stderr: " + err);

    Path conf = Files.writeString(dir.resolve("a.conf"), "work_mem = '16MB'\n");
    exit =
        run(
            "compare",
            "--json",
            "--cluster-dir",
            cluster.clusterDir().toString(),
            "--workload-cmd",
            COMMAND,
            "--config",
            conf.toString(),
            "--rounds",
            "2",
            "--out",
            runs.toString());
    assertEquals(0, exit, err::toString);
    Summary compared = Json.mapper().readValue(out.toString(), Summary.class);
    assertEquals(
        List.of("defaults", "config:a.conf"),
        compared.results().stream().map(Summary.ResultRow::name).toList(),
        out::toString);
    assertEquals(2, compared.results().get(1).tpsRatio().pairs(), out::toString);
    assertTrue(compared.verdict() != null, out::toString);
    assertTrue(err.toString().contains("comparison "), err::toString);
  }

  private static Path only(Path runs, List<Path> except) throws Exception {
    try (Stream<Path> s = Files.list(runs)) {
      return s.filter(p -> !except.contains(p)).findFirst().orElseThrow();
    }
  }
}
