package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.Cli;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.TransactionProfile;
import org.pgknob.workload.WorkloadResult;

class TproccCommandTest {
  @Test
  void rejectsFewerThanOneWarehouseBeforeConnecting() {
    StringWriter err = new StringWriter();
    int code =
        Cli.run(
            new StringWriter(),
            err,
            "tprocc",
            "build",
            "--warehouses",
            "0",
            "--target",
            "jdbc:postgresql://nowhere.invalid/x");
    assertEquals(ExitCodes.ERROR, code);
    assertTrue(err.toString().contains("--warehouses must be between 1 and"), err.toString());
  }

  @Test
  void rejectsADurationItCannotRead() {
    StringWriter err = new StringWriter();
    int code = Cli.run(new StringWriter(), err, "tprocc", "run", "--duration", "soon");
    assertEquals(ExitCodes.USAGE, code);
    assertTrue(err.toString().contains("is not a duration"), err.toString());
  }

  /**
   * tune and compare share their run options, whose help speaks of a compared session's values and
   * of auto; tprocc run measures one run and its help says only what that run takes.
   */
  @Test
  void theRunHelpDescribesItsOneRunWithoutTuneOrCompareForms() {
    StringWriter out = new StringWriter();
    assertEquals(ExitCodes.OK, Cli.run(out, new StringWriter(), "tprocc", "run", "--help"));
    String help = out.toString();
    assertTrue(help.contains("--duration=TIME "), help);
    assertTrue(help.contains("Measured window (default: 15s)."), help);
    assertTrue(help.contains("(default: 4)."), help);
    assertTrue(!help.contains("compare") && !help.contains("auto"), help);
  }

  @Test
  void readsDurationsInSecondsMinutesAndHours() {
    DurationSeconds d = new DurationSeconds();
    assertEquals(90, d.convert("90"));
    assertEquals(30, d.convert("30s"));
    assertEquals(120, d.convert("2m"));
    assertEquals(3600, d.convert("1h"));
  }

  @Test
  void printsHammerDbsSummaryLineAndTheTransactionTable() {
    LatencySummary neword = new LatencySummary(100, 9.5, 8, 20, 30, 45);
    WorkloadResult result =
        new WorkloadResult(
            10,
            180,
            0,
            18,
            17,
            new LatencySummary(181, 8.25, 7, 19, 29, 45),
            List.of(),
            new CheckpointAccount(0.5, 1234, 0),
            Map.of(),
            new TpccFigures(
                1200, 600.4, 1, List.of(new TransactionProfile("neword", 100, 0, 1, neword))));
    StringWriter text = new StringWriter();
    TproccRunReport.print(result, new PrintWriter(text));
    String out = text.toString();
    assertTrue(out.startsWith("System achieved 600 NOPM from 1200 PostgreSQL TPM"), out);
    assertTrue(
        out.contains(
            "neword          100        0      9.50      8.00     20.00     30.00     45.00       1"),
        out);
    assertTrue(
        out.contains("Driver: 18.0 TPS (180 committed in 10.0 s), average latency 8.25 ms"), out);
  }

  @Test
  void progressBecomesPlainLinesWithoutATerminal() {
    StringWriter text = new StringWriter();
    ConsoleProgress progress = new ConsoleProgress(new PrintWriter(text), false);
    progress.begin("load", 100, "rows");
    progress.advance(30);
    progress.advance(30);
    progress.end();
    String[] lines = text.toString().split("\n");
    assertEquals("load ...", lines[0]);
    assertEquals("load: 25%", lines[1]);
    assertEquals("load: 50%", lines[2]);
    assertTrue(lines[3].startsWith("load: done in "), lines[3]);
    assertTrue(!text.toString().contains("\r"));
  }
}
