package org.pgknob.workload;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one run of a workload measured over its fixed window. The trial, session and report code
 * read it; it is written to trials.jsonl as JSON, so rename nothing lightly.
 *
 * <p>In the file the TPC-C figures stay where records before {@link TpccFigures} put them: "tpm",
 * "nopm", "rollbacks" and "transactions" beside the others, and written only when the workload has
 * them. Those records wrote zeros (and pgbench's one script as the profile) for workloads without
 * them: a record with neither TPM nor NOPM reads as one without TPC-C figures.
 *
 * @param windowSeconds length of the measured window
 * @param committed transactions committed in the window (driver's count)
 * @param errors calls that failed unexpectedly
 * @param tps committed transactions per second (driver's way)
 * @param tpsWithCheckpoint the same, counting the checkpoint after the window in the time
 * @param overall latency over all transaction types
 * @param timeline one entry per second of the whole run
 * @param checkpoint deferred work after and checkpoints inside the window
 * @param extra workload-specific figures (e.g. TPROC-C's warehouses, an external command's numbers)
 * @param tpcc TPC-C's figures; null for a workload that has none
 */
public record WorkloadResult(
    double windowSeconds,
    long committed,
    long errors,
    double tps,
    double tpsWithCheckpoint,
    LatencySummary overall,
    List<SecondSample> timeline,
    CheckpointAccount checkpoint,
    Map<String, Double> extra,
    @JsonIgnore TpccFigures tpcc) {
  public WorkloadResult {
    timeline = timeline == null ? List.of() : List.copyOf(timeline);
    extra = extra == null ? Map.of() : Map.copyOf(extra);
    checkpoint = checkpoint == null ? CheckpointAccount.NONE : checkpoint;
    overall = overall == null ? LatencySummary.NONE : overall;
  }

  /** TPC-C's figures, empty for a workload that has none (pgbench's scripts). */
  public Optional<TpccFigures> tpccFigures() {
    return Optional.ofNullable(tpcc);
  }

  /** A result read from trials.jsonl, in the shape every pgknob version wrote. */
  @JsonCreator
  static WorkloadResult fromJson(
      @JsonProperty("windowSeconds") double windowSeconds,
      @JsonProperty("committed") long committed,
      @JsonProperty("errors") long errors,
      @JsonProperty("rollbacks") Long rollbacks,
      @JsonProperty("tps") double tps,
      @JsonProperty("tpsWithCheckpoint") double tpsWithCheckpoint,
      @JsonProperty("tpm") Double tpm,
      @JsonProperty("nopm") Double nopm,
      @JsonProperty("overall") LatencySummary overall,
      @JsonProperty("transactions") List<TransactionProfile> transactions,
      @JsonProperty("timeline") List<SecondSample> timeline,
      @JsonProperty("checkpoint") CheckpointAccount checkpoint,
      @JsonProperty("extra") Map<String, Double> extra) {
    boolean hasTpcc = (tpm != null && tpm != 0) || (nopm != null && nopm != 0);
    TpccFigures tpcc =
        hasTpcc
            ? new TpccFigures(
                tpm == null ? 0 : tpm,
                nopm == null ? 0 : nopm,
                rollbacks == null ? 0 : rollbacks,
                transactions)
            : null;
    return new WorkloadResult(
        windowSeconds,
        committed,
        errors,
        tps,
        tpsWithCheckpoint,
        overall,
        timeline,
        checkpoint,
        extra,
        tpcc);
  }

  @JsonProperty("tpm")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  Double tpmInFile() {
    return tpcc == null ? null : tpcc.tpm();
  }

  @JsonProperty("nopm")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  Double nopmInFile() {
    return tpcc == null ? null : tpcc.nopm();
  }

  @JsonProperty("rollbacks")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  Long rollbacksInFile() {
    return tpcc == null ? null : tpcc.rollbacks();
  }

  @JsonProperty("transactions")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  List<TransactionProfile> transactionsInFile() {
    return tpcc == null ? null : tpcc.transactions();
  }
}
