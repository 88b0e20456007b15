package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.runs.RunFiles;
import org.pgknob.session.TrialLog;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;
import picocli.CommandLine;

class OptimizeCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args);
  }

  private Path space() throws IOException {
    return Files.writeString(
        dir.resolve("space.yaml"),
        """
        knobs:
          x: {type: real, min: -2, max: 2}
          n: {type: integer, min: 1, max: 1000, scale: log, default: 10}
          mode: {type: enum, values: [fast, slow]}
        """);
  }

  private Path script(String body) throws IOException {
    return Files.writeString(dir.resolve("objective.py"), body);
  }

  @Test
  void findsAGoodConfigurationAndLogsEveryTrial() throws IOException {
    Path obj =
        script(
            """
            import json, sys, math
            c = json.load(sys.stdin)
            if c["n"] > 500:
                print(json.dumps({"status": "failed", "reason": "too many"}))
            else:
                print(json.dumps({"value": (c["x"] - 0.5) ** 2 + (0 if c["mode"] == "fast" else 1)}))
            """);
    Path outDir = dir.resolve("out");
    int code =
        run(
            "optimize",
            "--space",
            space().toString(),
            "--objective-cmd",
            "python3 " + obj,
            "--budget",
            "14",
            "--seed",
            "2",
            "--out",
            outDir.toString());
    assertEquals(0, code, err.toString());
    List<String> lines = Files.readAllLines(outDir.resolve("trials.jsonl"));
    assertEquals(14, lines.size());
    double best = Double.POSITIVE_INFINITY;
    for (int k = 0; k < lines.size(); k++) {
      JsonNode t = Json.mapper().readTree(lines.get(k));
      assertEquals(k + 1, t.get("trial").asInt());
      assertTrue(t.get("config").has("x") && t.get("config").has("mode"), lines.get(k));
      if (t.get("status").asText().equals("OK")) {
        best = Math.min(best, t.get("workload").get("extra").get("value").asDouble());
      } else {
        assertEquals("too many", t.get("reason").asText());
      }
    }
    assertTrue(best < 0.3, "best " + best);
    assertTrue(out.toString().contains("best value "), out.toString());
    assertTrue(out.toString().contains("knob importance"), out.toString());
  }

  @Test
  void sweepPrintsTheSensitivityRankingAndStopsWhenDone() throws IOException {
    Path obj =
        script(
            "import json,sys\nc=json.load(sys.stdin)\nprint(json.dumps({'value': c['x'] ** 2}))\n");
    int code =
        run(
            "optimize",
            "--space",
            space().toString(),
            "--objective-cmd",
            "python3 " + obj,
            "--budget",
            "100",
            "--optimizer",
            "sweep",
            "--out",
            dir.resolve("sweep").toString());
    assertEquals(0, code, err.toString());
    String text = out.toString();
    assertTrue(text.contains("the sweep finished after"), text);
    assertTrue(text.contains("sensitivity"), text);
    assertTrue(text.matches("(?s).*\\bmode\\s+no effect.*"), text);
  }

  /**
   * An optimize folder's trials.jsonl holds the sessions' trial records, read back by the sessions'
   * own reader; {@code pgknob report} says the folder is no session instead of drawing a report of
   * zeros.
   */
  @Test
  void trialsAreWrittenAsSessionTrialRecordsAndReadByTheSessionsReader() throws IOException {
    Path obj =
        script(
            """
            import json, sys
            c = json.load(sys.stdin)
            if c["mode"] == "slow":
                print(json.dumps({"status": "failed", "reason": "too slow"}))
            else:
                print(json.dumps({"value": c["x"] * 10 + c["n"], "other": 7}))
            """);
    Path outDir = dir.resolve("records");
    int code =
        run(
            "optimize",
            "--space",
            space().toString(),
            "--objective-cmd",
            "python3 " + obj,
            "--budget",
            "100",
            "--optimizer",
            "sweep",
            "--out",
            outDir.toString());
    assertEquals(0, code, err.toString());

    List<TrialResult> trials = new TrialLog(outDir.resolve(RunFiles.TRIALS)).read().trials();
    assertEquals(Files.readAllLines(outDir.resolve(RunFiles.TRIALS)).size(), trials.size());
    assertEquals(Phase.BASELINE, trials.get(0).phase());
    Map<String, Object> defaults = trials.get(0).config();
    assertEquals(0.0, ((Number) defaults.get("x")).doubleValue(), 1e-12, defaults.toString());
    assertEquals(10, ((Number) defaults.get("n")).longValue(), defaults.toString());
    assertEquals("fast", defaults.get("mode"));
    assertEquals(10.0, trials.get(0).workload().extra().get("value"), 1e-9);
    boolean sawFailure = false;
    for (int k = 0; k < trials.size(); k++) {
      TrialResult t = trials.get(k);
      assertEquals(k + 1, t.trial());
      assertEquals(k == 0 ? Phase.BASELINE : Phase.SWEEP, t.phase(), t.label());
      assertEquals(3, t.config().size(), "every knob as the command got it: " + t.config());
      if ("slow".equals(t.config().get("mode"))) {
        sawFailure = true;
        assertEquals(Status.CRASHED, t.status());
        assertEquals("too slow", t.reason());
        assertNull(t.workload());
      } else {
        assertEquals(Status.OK, t.status(), t.reason());
        double x = ((Number) t.config().get("x")).doubleValue();
        double n = ((Number) t.config().get("n")).doubleValue();
        assertEquals(x * 10 + n, t.workload().extra().get("value"), 1e-6);
        assertEquals(7.0, t.workload().extra().get("other"));
      }
    }
    assertTrue(sawFailure, "the sweep tried mode=slow");

    StringWriter reportErr = new StringWriter();
    CommandLine report = Main.commandLine();
    report.setOut(new PrintWriter(new StringWriter()));
    report.setErr(new PrintWriter(reportErr));
    assertEquals(ExitCodes.ERROR, report.execute("report", outDir.toString()));
    assertTrue(
        reportErr.toString().contains("is a `pgknob optimize` run, not a tuning session"),
        reportErr.toString());
    assertFalse(Files.exists(outDir.resolve("report.html")), "no report of zeros");
  }

  @Test
  void failedTrialsDoNotStopTheRun() throws IOException {
    Path obj =
        script(
            "import json,sys,random\nc=json.load(sys.stdin)\nprint('garbage' if c['x'] > 0 else json.dumps({'value': c['x']}))\n");
    int code =
        run(
            "optimize",
            "--space",
            space().toString(),
            "--objective-cmd",
            "python3 " + obj,
            "--budget",
            "8",
            "--optimizer",
            "random",
            "--out",
            dir.resolve("o").toString());
    assertEquals(0, code, err.toString());
    assertEquals(8, Files.readAllLines(dir.resolve("o/trials.jsonl")).size());
    assertTrue(out.toString().contains("not a JSON object"), out.toString());
  }

  @Test
  void everyTrialFailingEndsWithAClearError() throws IOException {
    int code =
        run(
            "optimize",
            "--space",
            space().toString(),
            "--objective-cmd",
            "echo nope",
            "--budget",
            "3",
            "--optimizer",
            "random",
            "--out",
            dir.resolve("f").toString());
    assertEquals(ExitCodes.ERROR, code);
    assertTrue(err.toString().contains("all 3 trials failed"), err.toString());
  }

  @Test
  void aHundredKnobSpaceIsRefusedBeforeTheFirstTrialWithTheLimitAndWhy() throws IOException {
    StringBuilder yaml = new StringBuilder("knobs:\n");
    for (int i = 0; i < 100; i++) {
      yaml.append("  k").append(i).append(": {type: real, min: 0, max: 1}\n");
    }
    Path wide = Files.writeString(dir.resolve("wide.yaml"), yaml.toString());
    Path ran = dir.resolve("ran");
    Path outDir = dir.resolve("wide-out");
    int code =
        run(
            "optimize",
            "--space",
            wide.toString(),
            "--objective-cmd",
            "touch " + ran + "; echo '{\"value\": 1}'",
            "--budget",
            "3",
            "--out",
            outDir.toString());
    assertEquals(ExitCodes.ERROR, code);
    assertTrue(err.toString().contains("at most 60 knobs"), err.toString());
    assertTrue(err.toString().contains("has 100"), err.toString());
    assertFalse(Files.exists(ran), "no trial ran");
    assertFalse(Files.exists(outDir.resolve("trials.jsonl")), "no log left behind");
  }

  @Test
  void badInputGetsOneClearLine() throws IOException {
    assertEquals(
        ExitCodes.ERROR,
        run("optimize", "--space", space().toString(), "--objective-cmd", "true", "--budget", "0"));
    assertTrue(err.toString().contains("--budget must be at least 1"), err.toString());

    Path empty = Files.writeString(dir.resolve("empty.yaml"), "knobs: {}\n");
    assertEquals(
        ExitCodes.ERROR,
        run("optimize", "--space", empty.toString(), "--objective-cmd", "true", "--budget", "2"));
    assertTrue(err.toString().contains("has no knobs"), err.toString());

    Path outDir = dir.resolve("nf");
    assertEquals(
        ExitCodes.ERROR,
        run(
            "optimize",
            "--space",
            space().toString(),
            "--objective-cmd",
            "no-such-cmd-xyz",
            "--budget",
            "2",
            "--out",
            outDir.toString()));
    assertTrue(err.toString().contains("command not found"), err.toString());
    assertFalse(Files.exists(outDir.resolve("trials.jsonl")), "nothing ran: no log left behind");
    assertFalse(Files.exists(outDir.resolve(RunFiles.OPTIMIZE)), "nor its inputs");

    assertEquals(
        ExitCodes.ERROR,
        run(
            "optimize",
            "--space",
            space().toString(),
            "--objective-cmd",
            "true",
            "--budget",
            "2",
            "--optimizer",
            "grid"));
    assertTrue(err.toString().contains("unknown optimizer 'grid'"), err.toString());
  }
}
