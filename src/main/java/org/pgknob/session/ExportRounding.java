package org.pgknob.session;

import java.util.List;
import java.util.Set;
import org.pgknob.report.DbaRounding;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;

/**
 * Rounds a pick's values as a DBA writes them ({@link DbaRounding}), before validation measures a
 * pick ({@link PickRounding}) and again at export, where a validated pick has nothing left to round
 * and an unvalidated one is rounded as it is written out: other numbers to two significant digits
 * ({@code random_page_cost} 1.63335 as 1.6), and memory (7.4GB as 7GB is too far, 6170887kB as 6GB
 * is not) without crossing the memory limit the pick was checked against:
 *
 * <ul>
 *   <li>memory the server allocates per backend or worker (work_mem, maintenance_work_mem, ...) and
 *       any memory setting not known here is only rounded down: its multiples make an increase hard
 *       to bound;
 *   <li>shared_buffers and wal_buffers, allocated once, may round up by what the pick's predicted
 *       memory leaves under 90% of RAM (the default limit of the safety rules);
 *   <li>sizes that allocate no memory (effective_cache_size, WAL sizes) round to the nearest.
 * </ul>
 */
final class ExportRounding {
  private static final double LIMIT_FRACTION = 0.90;
  private static final Set<String> ALLOCATED_ONCE = Set.of("shared_buffers", "wal_buffers");
  private static final Set<String> NOT_ALLOCATED =
      Set.of(
          "effective_cache_size",
          "min_wal_size",
          "max_wal_size",
          "wal_keep_size",
          "max_slot_wal_keep_size");

  private long headroomKb;
  private boolean rounded;

  private ExportRounding(long headroomKb) {
    this.headroomKb = Math.max(0, headroomKb);
  }

  /**
   * For a result row: the headroom is the memory limit less the largest prediction among the row's
   * trials; without a prediction (older folders, a command workload) nothing rounds up.
   */
  static ExportRounding forRow(
      List<Integer> rowTrials,
      List<TrialResult> trials,
      Summary.Machine sessionMachine,
      Summary.Machine summaryMachine) {
    Summary.Machine machine = summaryMachine != null ? summaryMachine : sessionMachine;
    long predicted =
        trials.stream()
            .filter(t -> rowTrials != null && rowTrials.contains(t.trial()))
            .filter(t -> t.predictedMemoryBytes() != null)
            .mapToLong(TrialResult::predictedMemoryBytes)
            .max()
            .orElse(-1);
    if (machine == null || machine.ramBytes() <= 0 || predicted < 0) {
      return new ExportRounding(0);
    }
    return new ExportRounding((long) ((LIMIT_FRACTION * machine.ramBytes() - predicted) / 1024));
  }

  /** {@code value} of {@code name} as a DBA writes it, within the limit. */
  String round(String name, String value) {
    var kb = DbaRounding.kilobytes(value);
    if (kb.isEmpty()) {
      String out = DbaRounding.number(value);
      rounded |= !out.equals(value);
      return out;
    }
    long exact = kb.get();
    long ceiling =
        NOT_ALLOCATED.contains(name)
            ? Long.MAX_VALUE
            : ALLOCATED_ONCE.contains(name) ? exact + headroomKb : exact;
    String out = DbaRounding.memoryKb(exact, ceiling);
    long after = DbaRounding.kilobytes(out).orElse(exact);
    if (ALLOCATED_ONCE.contains(name) && after > exact) {
      headroomKb -= after - exact;
    }
    rounded |= after != exact;
    return out;
  }

  /** True when a value was changed by the rounding. */
  boolean rounded() {
    return rounded;
  }
}
