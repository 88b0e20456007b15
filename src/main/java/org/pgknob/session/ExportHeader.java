package org.pgknob.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.pgknob.BuildInfo;
import org.pgknob.report.Labels;
import org.pgknob.runs.Summary;

/**
 * The header lines of an export beyond its name and verdict: where and how it was measured, so a
 * file found on a server months later says what it is. Only facts from the session folder: the same
 * folder always gives the same header.
 */
final class ExportHeader {
  private ExportHeader() {}

  static List<String> lines(SessionState state, Summary summary, boolean rounded) {
    List<String> out = new ArrayList<>();
    Summary.Machine m = summary.machine() != null ? summary.machine() : state.machine();
    if (m != null) {
      out.add(
          String.format(
                  Locale.ROOT,
                  "Machine: %d cores, %.1f GiB RAM",
                  m.cores(),
                  m.ramBytes() / (1024.0 * 1024 * 1024))
              + (m.storage() == null || m.storage().isBlank() ? "" : "; storage: " + m.storage()));
    }
    String workload = Labels.workload(summary.workload());
    if (!workload.isEmpty()) {
      out.add("Workload: " + workload);
    }
    String when =
        Labels.time(summary.startedAt() != null ? summary.startedAt() : state.createdAt());
    String by = state.pgknobVersion() == null ? BuildInfo.version() : state.pgknobVersion();
    out.add("Measured " + when + " by pgknob " + by + "; session " + state.id());
    if (rounded) {
      out.add(
          "Values are rounded as a DBA writes them, each within 5% of the measured one: memory to"
              + " a whole GB or MB, never up past the memory limit (90% of RAM), other numbers to"
              + " two significant digits; a setting that rounds to the server's own value is left"
              + " out");
    }
    return out;
  }
}
