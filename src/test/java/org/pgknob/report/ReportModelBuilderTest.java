package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Summary;

class ReportModelBuilderTest {
  @TempDir Path tmp;

  private static ReportModel fixture() {
    return ReportModelBuilder.build(SessionLoader.load(Fixtures.SESSION_SMALL));
  }

  @Test
  void resultsTableHoldsDefaultsPgtuneAndTheFourOptima() {
    ReportModel m = fixture();
    assertTrue(m.results().validated());
    assertEquals(
        List.of(
            "defaults", "pgtune", "reload/tps", "reload/latency", "restart/tps", "restart/latency"),
        m.results().rows().stream().map(Summary.ResultRow::name).toList());
  }

  @Test
  void aKnobOnALogScaleGetsALogAxisAndAnEnumKnobItsNames() {
    ReportModel m = fixture();
    ReportModel.Sweep sb = sweep(m, "shared_buffers");
    assertTrue(sb.log());
    assertEquals("MB", sb.unit());
    assertTrue(sb.charts().get(0).x().log());
    assertFalse(sweep(m, "checkpoint_timeout").log());
    assertEquals(
        List.of("off", "lz4", "zstd"),
        sweep(m, "wal_compression").charts().get(0).x().categories());
  }

  @Test
  void everySweepHasTheSeedStudysFigureSet() {
    for (ReportModel.Sweep s : fixture().sweeps()) {
      assertEquals(
          List.of("tps", "nopm", "latency", "cpu", "memory", "disk"),
          s.charts().stream().map(c -> c.id().substring(c.id().lastIndexOf('-') + 1)).toList());
      s.charts().forEach(c -> assertTrue(c.hasPoints(), c.id()));
    }
  }

  @Test
  void bestSoFarNeverGetsWorse() {
    ChartModel tps = fixture().convergence().get(0);
    for (ChartModel.Series s : tps.series()) {
      if (s.style() == ChartModel.Style.STEP) {
        for (int i = 1; i < s.points().size(); i++) {
          assertTrue(s.points().get(i).y() >= s.points().get(i - 1).y(), s.name());
        }
      }
    }
    ChartModel latency = fixture().convergence().get(1);
    for (ChartModel.Series s : latency.series()) {
      if (s.style() == ChartModel.Style.STEP) {
        for (int i = 1; i < s.points().size(); i++) {
          assertTrue(s.points().get(i).y() <= s.points().get(i - 1).y(), s.name());
        }
      }
    }
  }

  @Test
  void timelinesShowBaselineBestAndTheGuardrailTripMarked() {
    List<ChartModel> t = fixture().timelines();
    assertEquals(
        List.of("timeline-baseline", "timeline-best", "timeline-trial-21"),
        t.stream().map(ChartModel::id).toList());
    assertTrue(
        t.get(2).markers().stream().anyMatch(mk -> mk.label().contains("memory guard")),
        t.get(2).markers().toString());
    assertTrue(t.get(0).markers().stream().anyMatch(mk -> mk.label().contains("checkpoint")));
  }

  @Test
  void tailLatencyFrontHoldsOnlyTrialsNoOtherBeatsOnBothTpsAndP95() {
    SessionData data = SessionLoader.load(Fixtures.SESSION_SMALL);
    var front = TailLatencyChart.front(data.okTrials());
    assertFalse(front.isEmpty());
    for (var f : front) {
      for (var o : data.okTrials()) {
        boolean dominates =
            o.workload().tps() > f.workload().tps()
                && o.workload().overall().p95Ms() < f.workload().overall().p95Ms();
        assertFalse(dominates, "trial " + o.trial() + " dominates front trial " + f.trial());
      }
    }
  }

  @Test
  void reportSaysOneLineWasIncomplete() throws IOException {
    ReportModel m =
        ReportModelBuilder.build(SessionLoader.load(Fixtures.truncated(tmp.resolve("run"))));
    assertTrue(
        m.notices()
            .contains(
                "1 line of trials.jsonl was incomplete (the session was stopped while writing"
                    + " it)."),
        m.notices().toString());
    assertEquals(33, m.trials().size());
  }

  @Test
  void onlyFailedTrialsSaySoInsteadOfDrawingEmptyCharts() throws IOException {
    ReportModel m =
        ReportModelBuilder.build(SessionLoader.load(Fixtures.onlyFailed(tmp.resolve("run"))));
    assertTrue(m.charts().isEmpty(), m.charts().toString());
    assertNull(m.tailLatency());
    assertNull(m.memory());
    assertTrue(
        m.notices().stream().anyMatch(n -> n.startsWith("No trial finished successfully")),
        m.notices().toString());
    assertEquals(3, m.trials().size());
    assertTrue(m.results().rows().isEmpty());
  }

  @Test
  void withoutSummaryTheResultsSayValidationWasNotReached() {
    ReportModel m =
        ReportModelBuilder.build(SessionLoader.load(Fixtures.withoutSummary(tmp.resolve("run"))));
    assertFalse(m.results().validated());
    assertTrue(
        m.results().note().startsWith("The session has not reached validation yet"),
        m.results().note());
    assertEquals("the sweep trials", m.importance().sweepSource());
    assertEquals("shared_buffers", m.importance().sweep().get(0).knob());
    assertTrue(m.results().rows().stream().allMatch(r -> r.tpsRatio() == null));
  }

  @Test
  void aStoppedSessionsReportSaysWhenAfterHowManyTrialsAndHowToContinue() throws IOException {
    Path dir = Fixtures.withoutSummary(tmp.resolve("run"));
    var session =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            org.pgknob.Json.mapper().readTree(dir.resolve("session.json").toFile());
    session.remove("state");
    session.put("status", "stopped").put("updatedAt", "2026-12-01T06:26:26.246048735Z");
    session
        .putObject("progress")
        .put("trialsPlanned", 40)
        .put("message", "stopped by a signal (Ctrl-C or SIGTERM)");
    Files.writeString(
        dir.resolve("session.json"), org.pgknob.Json.mapper().writeValueAsString(session));
    ReportModel m = ReportModelBuilder.build(SessionLoader.load(dir));
    assertTrue(
        m.notices()
            .contains(
                "The session was stopped by a signal (Ctrl-C or SIGTERM) on 2026-12-01 06:26 UTC"
                    + " after 34 of 40 planned trials; pgknob put the server's original settings"
                    + " back. This report shows the trials finished before the stop; nothing was"
                    + " validated after it. Continue with: pgknob resume "
                    + dir),
        m.notices().toString());
  }

  private static ReportModel.Sweep sweep(ReportModel m, String knob) {
    return m.sweeps().stream().filter(s -> s.knob().equals(knob)).findFirst().orElseThrow();
  }
}
