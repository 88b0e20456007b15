package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The data behind each chart of the report, over the recorded session and copies of it changed in
 * one respect: which series each chart draws, from which trials, and the range of its axes.
 */
class ChartModelsTest {
  @TempDir Path tmp;

  private static ReportModel model(Path dir) {
    return ReportModelBuilder.build(SessionLoader.load(dir));
  }

  private static ChartModel.Series series(ChartModel c, String name) {
    return c.series().stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " not in " + names(c)));
  }

  private static List<String> names(ChartModel c) {
    return c.series().stream().map(ChartModel.Series::name).toList();
  }

  private static List<Integer> xs(ChartModel.Series s) {
    return s.points().stream().map(p -> (int) p.x()).toList();
  }

  /** The axis holds every point with its bar and every band. */
  private static void yAxisHoldsEverything(ChartModel c) {
    double min = c.y().min();
    double max = c.y().max();
    assertTrue(max > min, c.id() + ": " + c.y());
    for (ChartModel.Series s : c.series()) {
      for (ChartModel.Point p : s.points()) {
        double lo = p.hasErrorBar() ? p.low() : p.y();
        double hi = p.hasErrorBar() ? p.high() : p.y();
        assertTrue(lo >= min && hi <= max, c.id() + " " + s.name() + " " + p + " outside " + c.y());
      }
    }
    for (ChartModel.Band b : c.bands()) {
      assertTrue(b.low() >= min && b.high() <= max, c.id() + " band " + b + " outside " + c.y());
    }
  }

  private static List<Double> baselineTps() {
    return SessionLoader.load(Fixtures.SESSION_SMALL).okPhase(Phase.BASELINE).stream()
        .map(t -> t.workload().tps())
        .toList();
  }

  @Test
  void runOrderJoinsEveryRunOfTheDefaultsAndShadesEachPhase() {
    ChartModel c = model(Fixtures.SESSION_SMALL).runOrder();
    assertEquals("run-order", c.id());
    assertTrue(c.title().contains("drift"), c.title());
    ChartModel.Series defaults = series(c, "runs of the defaults (drift)");
    assertEquals(ChartModel.Style.LINE, defaults.style());
    assertEquals(List.of(1, 2, 3, 24, 26, 28, 30, 32), xs(defaults));
    int points =
        c.series().stream()
            .filter(s -> s.style() == ChartModel.Style.POINTS)
            .mapToInt(s -> s.points().size())
            .sum();
    assertEquals(31, points, "every successful trial once (34 minus 3 failed)");
    assertEquals(
        List.of(
            "baseline phase 0.5-3.5",
            "sweep phase 3.5-15.5",
            "bayes phase 15.5-23.5",
            "validation phase 23.5-33.5",
            "pgtune phase 33.5-34.5"),
        c.markers().stream().map(m -> Num.f("%s %.1f-%.1f", m.label(), m.x(), m.xEnd())).toList());
    assertEquals(1, c.bands().size());
    yAxisHoldsEverything(c);
  }

  @Test
  void sweepPointsCarryErrorBarsFromRepeatsOrPooledNoiseAndTheDefaultIsMarked() throws IOException {
    ModelAndSweep m = sweepTps(Fixtures.withSettingFacts(tmp.resolve("run")), "shared_buffers");
    ChartModel c = m.chart;
    ChartModel.Series tps = series(c, "TPS");
    assertEquals(ChartModel.Style.LINE, tps.style(), "joined: the noise band is shown");
    assertEquals(List.of(32, 128, 512, 1024, 2048), xs(tps));
    assertTrue(
        c.markers().stream().anyMatch(mk -> mk.label().equals("default: 128MB") && mk.x() == 128),
        c.markers().toString());
    // At the default: the sweep's run (trial 5, 413.167) and the three baseline runs.
    List<Double> atDefault = new java.util.ArrayList<>(baselineTps());
    atDefault.add(413.167);
    ChartModel.Point p128 = tps.points().get(1);
    double half = 2 * Num.sd(atDefault) / Math.sqrt(4);
    assertEquals(Num.mean(atDefault), p128.y(), 0.001);
    assertEquals(Num.mean(atDefault) - half, p128.low(), 0.002);
    // Ran once (trial 4, 326.533): 2 x the baseline's run-to-run CV x its value.
    double cv = Num.sd(baselineTps()) / Num.mean(baselineTps());
    ChartModel.Point p32 = tps.points().get(0);
    assertEquals(326.533, p32.y(), 0.001);
    assertEquals(2 * cv * 326.533, p32.high() - p32.y(), 0.002);
    assertEquals(1, c.bands().size());
    yAxisHoldsEverything(c);
  }

  @Test
  void withoutAnyNoiseLevelSweepPointsAreNotJoinedIntoAVInsideAnUnseenBand() throws IOException {
    Path dir = Fixtures.withoutSummary(tmp.resolve("run"));
    Path trials = dir.resolve("trials.jsonl");
    List<String> lines = Files.readAllLines(trials, StandardCharsets.UTF_8);
    Files.write(trials, lines.subList(2, lines.size()), StandardCharsets.UTF_8); // one baseline run
    ChartModel c = sweepTps(dir, "checkpoint_timeout").chart;
    assertTrue(c.bands().isEmpty());
    ChartModel.Series tps = series(c, "TPS");
    assertEquals(ChartModel.Style.POINTS, tps.style());
    assertTrue(tps.points().stream().noneMatch(ChartModel.Point::hasErrorBar), tps.toString());
    assertTrue(c.caption().contains("not joined"), c.caption());
  }

  private record ModelAndSweep(ReportModel model, ChartModel chart) {}

  private static ModelAndSweep sweepTps(Path dir, String knob) {
    ReportModel m = model(dir);
    ChartModel c =
        m.sweeps().stream()
            .filter(s -> s.knob().equals(knob))
            .flatMap(s -> s.charts().stream())
            .filter(ch -> ch.id().endsWith("-tps"))
            .findFirst()
            .orElseThrow();
    return new ModelAndSweep(m, c);
  }

  @Test
  void tailLatencyPlotsP95AndP99AgainstTpsAndNoAverage() {
    ChartModel c = model(Fixtures.SESSION_SMALL).tailLatency();
    assertEquals("tail-latency", c.id());
    assertEquals(List.of("p95 latency", "p99 latency", "front (p95)"), names(c));
    assertTrue(c.x().label().contains("TPS"), c.x().label());
    List<TrialResult> ok = SessionLoader.load(Fixtures.SESSION_SMALL).okTrials();
    assertEquals(ok.size(), series(c, "p95 latency").points().size());
    ChartModel.Point first = series(c, "p99 latency").points().get(0);
    assertEquals(ok.get(0).workload().tps(), first.x(), 0.001);
    assertEquals(ok.get(0).workload().overall().p99Ms(), first.y(), 0.001);
    assertFalse(c.series().stream().anyMatch(s -> s.name().contains("avg")));
    yAxisHoldsEverything(c);
  }

  @Test
  void latencyDistributionDrawsTheDefaultsAgainstTheBestValidatedRow() {
    ChartModel c = model(Fixtures.SESSION_SMALL).latencyDistribution();
    assertEquals(List.of("defaults", "pick: restart/tps"), names(c));
    // The fixture's trials predate the percentile table: p50, p95, p99 and the maximum.
    List<Double> x = series(c, "defaults").points().stream().map(ChartModel.Point::x).toList();
    assertEquals(4, x.size(), x.toString());
    assertEquals(Math.log10(2), x.get(0), 0.001);
    assertEquals(Math.log10(20), x.get(1), 0.001);
    assertEquals(2.0, x.get(2), 0.001);
    assertEquals("0%", c.x().categories().get(0));
    assertEquals("99.9%", c.x().categories().get(3));
    assertTrue(c.x().max() >= x.get(3), c.x().toString());
    yAxisHoldsEverything(c);
  }

  @Test
  void latencyDistributionUsesTheRecordedPercentileTable() throws IOException {
    Path dir = Fixtures.copy(tmp.resolve("run"));
    Path file = dir.resolve("trials.jsonl");
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      ObjectNode t = (ObjectNode) Json.mapper().readTree(line);
      if (t.path("workload").path("overall").isObject()) {
        ArrayNode table = ((ObjectNode) t.path("workload").path("overall")).putArray("percentiles");
        double[][] rows = {{0, 1}, {50, 5}, {90, 10}, {99, 20}, {99.9, 40}, {100, 80}};
        for (double[] r : rows) {
          table.addObject().put("percentile", r[0]).put("ms", r[1]);
        }
      }
      out.append(Json.mapper().writeValueAsString(t)).append('\n');
    }
    Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    ChartModel c = model(dir).latencyDistribution();
    ChartModel.Series d = series(c, "defaults");
    assertEquals(
        List.of(1.0, 5.0, 10.0, 20.0, 40.0, 80.0),
        d.points().stream().map(ChartModel.Point::y).toList());
    assertEquals(
        List.of(0.0, 0.301, 1.0, 2.0, 3.0),
        d.points().subList(0, 5).stream().map(ChartModel.Point::x).toList());
  }

  @Test
  void memoryShowsPssRssAndThePredictionUnderTheNamedLimit() {
    ChartModel c = model(Fixtures.SESSION_SMALL).memory();
    assertEquals("memory", c.id());
    ChartModel.Series limit = series(c, "limit: 90% of RAM (3.6GB of 4GB)");
    assertEquals(0.9 * 4096, limit.points().get(0).y(), 0.001);
    assertEquals(List.of(1, 34), xs(limit));
    assertTrue(c.caption().contains("limit: 90% of RAM"), c.caption());
    assertEquals(List.of(18, 20, 21), xs(series(c, "predicted by the safety rules")));
    assertEquals(32, series(c, "summed PSS (peak)").points().size(), "every trial that ran");
    assertEquals(0.0, c.y().min());
    yAxisHoldsEverything(c);
  }

  @Test
  void diskShowsEachTrialsLeastFreeSpaceUnderTheRulesReserve() throws IOException {
    ChartModel c = model(Fixtures.withDiskFree(tmp.resolve("run"), 1, 2, 5)).disk();
    assertEquals("disk", c.id());
    ChartModel.Series least = series(c, "least free space in the window");
    assertEquals(List.of(1, 2, 5), xs(least));
    assertEquals(
        List.of(5020.0, 4920.0, 4620.0), least.points().stream().map(ChartModel.Point::y).toList());
    ChartModel.Series reserve = series(c, "reserve: 1GB");
    assertEquals(1024.0, reserve.points().get(0).y(), 0.001);
    assertEquals(List.of(1, 34), xs(reserve));
    yAxisHoldsEverything(c);
  }

  @Test
  void aSessionWhoseDiskWasNotReadHasNoDiskChart() {
    assertNull(model(Fixtures.SESSION_SMALL).disk());
  }

  @Test
  void aSessionWhoseTrialsAllMeasuredTheSameDrawsNoCollapsedAxis() throws IOException {
    ReportModel m = model(Fixtures.allEqual(tmp.resolve("run")));
    assertTrue(m.charts().size() > 10, m.charts().size() + " charts");
    java.util.Set<String> kinds = new HashSet<>();
    for (ChartModel c : m.charts()) {
      assertTrue(c.x().max() > c.x().min(), c.id() + " x " + c.x());
      assertTrue(c.y().max() > c.y().min(), c.id() + " y " + c.y());
      // Drawing takes time: one chart of each kind (the browser test reads every chart's ticks).
      String kind = c.id().startsWith("sweep-shared") ? c.id() : c.id().replaceAll("-.*", "");
      if (!kinds.add(kind)) {
        continue;
      }
      ChartRenderer.Rendered r = ChartRenderer.render(c);
      for (List<String> ticks : List.of(r.xTicks(), r.yTicks())) {
        assertTrue(ticks.size() >= 2, c.id() + " has " + ticks);
        assertEquals(ticks.size(), new HashSet<>(ticks).size(), c.id() + " repeats " + ticks);
      }
    }
  }

  @Test
  void everyChartIdIsUniqueSoNoPngOverwritesAnother() {
    List<String> ids = model(Fixtures.SESSION_SMALL).charts().stream().map(ChartModel::id).toList();
    assertEquals(ids.size(), new HashSet<>(ids).size(), ids.toString());
    assertNotNull(
        ids.stream().collect(Collectors.toSet()).containsAll(List.of("run-order", "memory")));
  }
}
