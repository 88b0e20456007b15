package org.pgknob.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.TransactionProfile;
import org.pgknob.workload.WorkloadResult;

/** The text summary of a TPROC-C run, in HammerDB's terms first, then the driver's. */
final class TproccRunReport {
  private TproccRunReport() {}

  static void print(WorkloadResult r, PrintWriter out) {
    TpccFigures tpcc = r.tpccFigures().orElseThrow();
    out.printf(
        Locale.ROOT,
        "System achieved %.0f NOPM from %.0f PostgreSQL TPM%n%n",
        tpcc.nopm(),
        tpcc.tpm());
    out.printf(
        Locale.ROOT,
        "%-9s %9s %8s %9s %9s %9s %9s %9s %7s%n",
        "",
        "calls",
        "errors",
        "avg ms",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "rollbk");
    for (TransactionProfile t : tpcc.transactions()) {
      row(out, t.name(), t.calls(), t.errors(), t.rollbacks(), t.latency());
    }
    row(out, "all", r.overall().count(), r.errors(), tpcc.rollbacks(), r.overall());
    out.printf(
        Locale.ROOT,
        "%nDriver: %.1f TPS (%d committed in %.1f s), average latency %.2f ms%n",
        r.tps(),
        r.committed(),
        r.windowSeconds(),
        r.overall().avgMs());
    out.printf(
        Locale.ROOT,
        "Checkpoint after the window: %.1f s, %d buffers written; %d checkpoints and %d"
            + " autovacuum runs inside it; %.1f TPS counting the checkpoint%n",
        r.checkpoint().afterWindowSeconds(),
        r.checkpoint().afterWindowBuffers(),
        r.checkpoint().checkpointsInWindow(),
        r.checkpoint().autovacuumsInWindow(),
        r.tpsWithCheckpoint());
  }

  private static void row(
      PrintWriter out, String name, long calls, long errors, long rollbacks, LatencySummary l) {
    out.printf(
        Locale.ROOT,
        "%-9s %9d %8d %9.2f %9.2f %9.2f %9.2f %9.2f %7d%n",
        name,
        calls,
        errors,
        l.avgMs(),
        l.p50Ms(),
        l.p95Ms(),
        l.p99Ms(),
        l.maxMs(),
        rollbacks);
  }
}
