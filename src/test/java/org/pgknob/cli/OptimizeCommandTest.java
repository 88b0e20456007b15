package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
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
import org.pgknob.testing.Cli;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

class OptimizeCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Cli.run(out, err, args);
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
    // "over 1 runs" said of a configuration run once
    assertTrue(
        out.toString()
            .matches(
                "(?s).*model's best \\(posterior mean \\S+, observed \\S+ over (1 run|[2-9]\\d* runs)\\): .*"),
        out.toString());
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

    // Its trials.jsonl holds the sessions' trial records, read by the sessions' own reader.
    Path trialsFile = dir.resolve("sweep").resolve(RunFiles.TRIALS);
    List<TrialResult> trials = new TrialLog(trialsFile).read().trials();
    assertEquals(Files.readAllLines(trialsFile).size(), trials.size());
    for (int k = 0; k < trials.size(); k++) {
      TrialResult t = trials.get(k);
      assertEquals(k + 1, t.trial());
      assertEquals(k == 0 ? Phase.BASELINE : Phase.SWEEP, t.phase(), t.label());
      assertEquals(3, t.config().size(), "every knob as the command got it: " + t.config());
      assertEquals(Status.OK, t.status(), t.reason());
      double x = ((Number) t.config().get("x")).doubleValue();
      assertEquals(x * x, t.workload().extra().get("value"), 1e-9);
    }
    Map<String, Object> defaults = trials.get(0).config();
    assertEquals(0.0, ((Number) defaults.get("x")).doubleValue(), 1e-12, defaults.toString());
    assertEquals(10, ((Number) defaults.get("n")).longValue(), defaults.toString());
    assertEquals("fast", defaults.get("mode"));

    // The report says the folder is no session instead of drawing a report of zeros.
    StringWriter reportErr = new StringWriter();
    assertEquals(
        ExitCodes.ERROR,
        Cli.run(new StringWriter(), reportErr, "report", dir.resolve("sweep").toString()));
    assertTrue(
        reportErr.toString().contains("is a `pgknob optimize` run, not a tuning session"),
        reportErr.toString());
    assertFalse(Files.exists(dir.resolve("sweep").resolve("report.html")), "no report of zeros");
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
    List<TrialResult> trials =
        new TrialLog(dir.resolve("o").resolve(RunFiles.TRIALS)).read().trials();
    assertEquals(8, trials.size());
    for (TrialResult t : trials) {
      assertEquals(Phase.BAYES, t.phase(), "random search's trials are the search phase");
      double x = ((Number) t.config().get("x")).doubleValue();
      if (x > 0) {
        assertEquals(Status.CRASHED, t.status());
        assertTrue(t.reason().contains("not a JSON object"), t.reason());
        assertNull(t.workload());
      } else {
        assertEquals(Status.OK, t.status(), t.reason());
        assertEquals(x, t.workload().extra().get("value"), 1e-9);
      }
    }
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
