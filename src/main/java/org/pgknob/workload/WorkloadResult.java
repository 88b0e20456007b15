package org.pgknob.workload;

import java.util.List;
import java.util.Map;

/**
 * What one run of a workload measured over its fixed window. The trial, session and report code
 * read it; it is written to trials.jsonl as JSON, so rename nothing lightly.
 *
 * @param windowSeconds length of the measured window
 * @param committed business transactions committed in the window (driver's count)
 * @param errors calls that failed unexpectedly
 * @param rollbacks business rollbacks (TPC-C's 1% invalid new orders)
 * @param tps committed business transactions per second (driver's way)
 * @param tpsWithCheckpoint the same, counting the checkpoint after the window in the time
 * @param tpm HammerDB's PostgreSQL TPM: change of xact_commit + xact_rollback per minute
 * @param nopm HammerDB's NOPM: change of sum(d_next_o_id) per minute (0 for non-TPC-C workloads)
 * @param overall latency over all transaction types
 * @param transactions per transaction type
 * @param timeline one entry per second of the whole run
 * @param checkpoint deferred work after and checkpoints inside the window
 * @param extra workload-specific figures (e.g. an external command's own numbers)
 */
public record WorkloadResult(
    double windowSeconds,
    long committed,
    long errors,
    long rollbacks,
    double tps,
    double tpsWithCheckpoint,
    double tpm,
    double nopm,
    LatencySummary overall,
    List<TransactionProfile> transactions,
    List<SecondSample> timeline,
    CheckpointAccount checkpoint,
    Map<String, Double> extra) {
  public WorkloadResult {
    transactions = transactions == null ? List.of() : List.copyOf(transactions);
    timeline = timeline == null ? List.of() : List.copyOf(timeline);
    extra = extra == null ? Map.of() : Map.copyOf(extra);
    checkpoint = checkpoint == null ? CheckpointAccount.NONE : checkpoint;
    overall = overall == null ? LatencySummary.NONE : overall;
  }
}
