package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.pgknob.report.ChartModel;
import org.pgknob.report.ReportModel;
import org.pgknob.report.ReportModelBuilder;
import org.pgknob.report.SessionData;
import org.pgknob.report.SessionLoader;
import org.pgknob.trial.TrialResult;

/**
 * The console's "best so far" after each trial and the report's convergence chart agree, trial by
 * trial, over a recorded session with baseline, sweep, Bayesian, failed, validation and
 * PGTune-style runs (the issue found them disagreeing).
 */
class ConsoleAndChartBestSoFarTest {
  private static final Path SESSION = Path.of("src/test/resources/fixtures/session-small");
  private static final Pattern BEST = Pattern.compile("(\\w+) ([0-9.]+) TPS \\(trial (\\d+)\\)");

  @Test
  void consoleBestSoFarEqualsTheConvergenceChartsStepAfterEveryTrial() {
    SessionData data = SessionLoader.load(SESSION);
    ReportModel model = ReportModelBuilder.build(data);
    ChartModel chart =
        model.convergence().stream()
            .filter(c -> c.id().equals("convergence-tps"))
            .findFirst()
            .orElseThrow();
    StringWriter text = new StringWriter();
    ProgressPrinter console = new ProgressPrinter(new PrintWriter(text, true), false);
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
            e.getValue(), step, 0.051, "track " + e.getKey() + " after trial " + t.trial());
        compared++;
      }
    }
    assertFalse(compared < data.trials().size(), "compared " + compared + " values only");
    // Validation runs are drawn apart and never raise the line.
    assertEquals(
        List.of(24, 25, 26, 27, 28, 29, 30, 31, 32, 33),
        series(chart, "validation runs (not counted)").points().stream()
            .map(p -> (int) p.x())
            .toList());
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
