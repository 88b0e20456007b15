package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.report.ChartModel;
import org.pgknob.report.ReportModel;
import org.pgknob.report.ReportModelBuilder;
import org.pgknob.report.SessionData;
import org.pgknob.report.SessionLoader;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.trial.TrialResult;

/**
 * The console's "best so far" after each trial and the report's convergence chart agree, trial by
 * trial, over a recorded session with baseline, sweep, Bayesian, failed, validation and
 * PGTune-style runs (the issue found them disagreeing).
 */
class ConsoleAndChartBestSoFarTest {
  private static final Path SESSION = Path.of("src/test/resources/fixtures/session-small");
  private static final Pattern BEST =
      Pattern.compile("(\\w+) ([0-9.]+) (?:TPS|ms avg) \\(trial (\\d+)\\)");

  @Test
  void consoleBestSoFarEqualsTheConvergenceChartsStepAfterEveryTrial() {
    ChartModel chart =
        agreeTrialByTrial(SessionLoader.load(SESSION), List.of(Track.RELOAD), Goal.TPS);
    // Validation runs are drawn apart and never raise the line.
    assertEquals(
        List.of(24, 25, 26, 27, 28, 29, 30, 31, 32, 33),
        series(chart, "validation runs (not counted)").points().stream()
            .map(p -> (int) p.x())
            .toList());
    assertEquals(1, (int) series(chart, "reload best so far").points().get(0).x());
  }

  /**
   * The baseline's runs are logged as the reload track's; in a session whose first track is restart
   * (a restart-only session) both count them in the restart track, as they agree.
   */
  @Test
  void theBaselineCountsInTheSessionsFirstTrackOnTheConsoleAndTheChart(@TempDir Path dir)
      throws Exception {
    for (String file : List.of("session.json", "summary.json", "trials.jsonl")) {
      Files.copy(SESSION.resolve(file), dir.resolve(file));
    }
    var session = (ObjectNode) Json.mapper().readTree(dir.resolve("session.json").toFile());
    ((ObjectNode) session.path("inputs")).putArray("tracks").add("restart");
    Json.mapper().writeValue(dir.resolve("session.json").toFile(), session);

    ChartModel chart = agreeTrialByTrial(SessionLoader.load(dir), List.of(Track.RESTART), Goal.TPS);
    assertEquals(1, (int) series(chart, "restart best so far").points().get(0).x());
    assertEquals(9, (int) series(chart, "reload best so far").points().get(0).x());
  }

  /**
   * A latency session's console prints the lowest average latency so far, and it agrees with the
   * report's latency convergence chart.
   */
  @Test
  void aLatencySessionsConsoleBestEqualsTheLatencyChartsStep() {
    ChartModel chart =
        agreeTrialByTrial(SessionLoader.load(SESSION), List.of(Track.RELOAD), Goal.LATENCY);
    assertEquals(1, (int) series(chart, "reload best so far").points().get(0).x());
  }

  /**
   * Checks the console against the chart of {@code objective} after every trial; returns the chart.
   */
  private static ChartModel agreeTrialByTrial(
      SessionData data, List<Track> sessionTracks, Goal objective) {
    ReportModel model = ReportModelBuilder.build(data);
    String id = objective == Goal.LATENCY ? "convergence-latency" : "convergence-tps";
    ChartModel chart =
        model.convergence().stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
    StringWriter text = new StringWriter();
    ProgressPrinter console = new ProgressPrinter(new PrintWriter(text, true), false);
    console.alreadyLogged(sessionTracks, objective, List.of());
    int compared = 0;
    for (TrialResult t : data.trials()) {
      int before = text.getBuffer().length();
      console.trialFinished(t);
      String printed = text.getBuffer().substring(before);
      Map<String, Double> consoleBest = new LinkedHashMap<>();
      for (String line : printed.split("\n")) {
        if (line.startsWith("  best window so far: ")) {
          Matcher m = BEST.matcher(line);
          while (m.find()) {
            consoleBest.put(m.group(1), Double.parseDouble(m.group(2)));
          }
        }
      }
      for (Map.Entry<String, Double> e : consoleBest.entrySet()) {
        double step = stepAt(chart, e.getKey(), t.trial());
        assertEquals(
            e.getValue(),
            step,
            objective == Goal.LATENCY ? 0.0051 : 0.051, // the console's decimals
            "track " + e.getKey() + " after trial " + t.trial());
        compared++;
      }
    }
    assertFalse(compared < data.trials().size(), "compared " + compared + " values only");
    return chart;
  }

  /** The step line's value at trial {@code n}: its last point at or before n. */
  private static double stepAt(ChartModel chart, String track, int n) {
    double v = Double.NaN;
    for (ChartModel.Point p : series(chart, track + " best so far").points()) {
      if (p.x() <= n) {
        v = p.y();
      }
    }
    return v;
  }

  private static ChartModel.Series series(ChartModel chart, String name) {
    return chart.series().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }
}
