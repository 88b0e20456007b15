package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session through a workload command that prints {@code {"value": N}} alone (README's example):
 * its trials record 0 ms, which the report drew as a latency of 0, a flat latency convergence chart
 * and 0.000 ms in the trials' table, where README says latency is left out of the report.
 */
class NoLatencyReportTest {
  private static final Path SESSION = Path.of("src/test/resources/fixtures/no-latency");

  @Test
  void aWorkloadWithoutLatencyHasNoLatencyChartAndNoZeroLatencies() {
    ReportModel model = ReportModelBuilder.build(SessionLoader.load(SESSION));

    assertEquals(
        List.of("convergence-tps"), model.convergence().stream().map(ChartModel::id).toList());
    assertEquals(17, model.trials().size());
    assertTrue(
        model.trials().stream().allMatch(r -> r.latencyAvgMs() == null && r.latencyP95Ms() == null),
        model.trials().toString());
    assertTrue(model.trials().stream().allMatch(r -> r.tps() != null && r.tps() > 900));
  }
}
