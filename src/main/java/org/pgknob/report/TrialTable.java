package org.pgknob.report;

import java.util.List;
import org.pgknob.server.ForeignLoad;
import org.pgknob.trial.TrialResult;

/**
 * Every trial as a row: how it ended and why, what it set, what it measured, and whether other
 * processes on the host took CPU during its window.
 */
final class TrialTable {
  private TrialTable() {}

  static List<ReportModel.TrialRow> build(SessionData data) {
    return data.trials().stream().map(TrialTable::row).toList();
  }

  private static ReportModel.TrialRow row(TrialResult t) {
    return new ReportModel.TrialRow(
        t.trial(),
        t.phase() == null ? "" : t.phase().label(),
        t.track() == null ? "" : t.track().label(),
        t.label(),
        t.isOk() ? "ok" : String.valueOf(t.status()),
        t.reason(),
        value(t, Metric.TPS),
        value(t, Metric.NOPM),
        value(t, Metric.LATENCY_AVG),
        value(t, Metric.LATENCY_P95),
        value(t, Metric.CPU_TOTAL),
        value(t, Metric.RSS),
        value(t, Metric.PSS),
        t.predictedMemoryBytes() == null ? null : Num.r(t.predictedMemoryBytes() / Num.MB),
        new java.util.TreeMap<>(t.settings()),
        ForeignLoad.note(t.resources()).orElse(null),
        t.disturbedWindow() == null ? null : t.disturbedWindow().describe());
  }

  private static Double value(TrialResult t, Metric m) {
    double v = m.of(t);
    return Double.isNaN(v) ? null : Num.r(v);
  }
}
