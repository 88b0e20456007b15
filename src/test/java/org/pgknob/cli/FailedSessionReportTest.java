package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;

/**
 * A session that fails on the way still leaves a report, and the report says what happened: here a
 * benchmark command that fails every baseline run, which ends the session after the baseline.
 */
class FailedSessionReportTest {
  @TempDir Path runs;

  @Test
  void aFailedSessionWritesAReportSayingItFailedAndWhy() throws Exception {
    ManagedCluster cluster = SessionPostgres.cluster();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Cli.run(
            out,
            err,
            "tune",
            "--target",
            cluster.jdbcUrl("postgres"),
            "--user",
            "postgres",
            "--password-file",
            cluster.passwordFile().toString(),
            "--workload-cmd",
            "cat > /dev/null; exit 3",
            "--budget",
            "13",
            "--tracks",
            "reload",
            "--rampup",
            "1s",
            "--duration",
            "1s",
            "--out",
            runs.toString());
    assertEquals(ExitCodes.ERROR, code, out + "\n" + err);
    Path session;
    try (var folders = Files.list(runs)) {
      session = folders.findFirst().orElseThrow(() -> new AssertionError(out + "\n" + err));
    }
    Path report = session.resolve("report.html");
    assertTrue(Files.exists(report), out.toString());
    assertTrue(out.toString().contains("report: " + report), out.toString());
    String html = Files.readString(report);
    assertTrue(html.contains("The session failed"), html.substring(0, 3000));
    assertTrue(html.contains("baseline run on the server&#39;s defaults failed"), html);
  }
}
