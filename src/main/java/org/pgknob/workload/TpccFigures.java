package org.pgknob.workload;

import java.util.List;

/**
 * The figures only a TPC-C-like workload has: HammerDB's TPM and NOPM, TPC-C's business rollbacks
 * and the per-transaction profile (new order, payment, ...). TPROC-C measures all of them; an
 * external command (HammerDB itself) may report NOPM and TPM; pgbench's scripts have none, so their
 * results carry no {@code TpccFigures} and no NOPM is shown for them anywhere.
 *
 * @param tpm HammerDB's PostgreSQL TPM: change of xact_commit + xact_rollback per minute
 * @param nopm HammerDB's NOPM: change of sum(d_next_o_id) per minute
 * @param rollbacks business rollbacks (TPC-C's 1% invalid new orders)
 * @param transactions per transaction type, as HammerDB's time profile shows them
 */
public record TpccFigures(
    double tpm, double nopm, long rollbacks, List<TransactionProfile> transactions) {
  public TpccFigures {
    transactions = transactions == null ? List.of() : List.copyOf(transactions);
  }
}
