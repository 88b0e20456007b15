package org.pgknob.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.TransactionProfile;

/**
 * Per-transaction latency for each row of the results table (the baseline and each optimum), pooled
 * over the row's trials: calls, errors and rollbacks summed, the average weighted by calls,
 * percentiles as the call-weighted mean of each trial's, the maximum the largest.
 */
final class ProfileTables {
  private ProfileTables() {}

  static List<ReportModel.Profile> build(SessionData data, ReportModel.Results results) {
    Map<Integer, TrialResult> byNumber = new LinkedHashMap<>();
    data.trials().forEach(t -> byNumber.put(t.trial(), t));
    List<ReportModel.Profile> out = new ArrayList<>();
    for (Summary.ResultRow row : results.rows()) {
      List<TrialResult> trials = new ArrayList<>();
      if (row.trials() != null) {
        for (Integer n : row.trials()) {
          TrialResult t = byNumber.get(n);
          if (t != null && t.isOk() && !profiles(t).isEmpty()) {
            trials.add(t);
          }
        }
      }
      if (!trials.isEmpty()) {
        out.add(
            new ReportModel.Profile(
                row.name(), trials.stream().map(TrialResult::trial).toList(), pool(trials)));
      }
    }
    return out;
  }

  /** The trial's per-transaction profile: TPC-C's five types; none for a one-script workload. */
  private static List<TransactionProfile> profiles(TrialResult t) {
    return t.workload().tpccFigures().map(TpccFigures::transactions).orElse(List.of());
  }

  private static List<TransactionProfile> pool(List<TrialResult> trials) {
    Map<String, List<TransactionProfile>> byName = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      for (TransactionProfile p : profiles(t)) {
        byName.computeIfAbsent(p.name(), k -> new ArrayList<>()).add(p);
      }
    }
    List<TransactionProfile> out = new ArrayList<>();
    byName.forEach((name, parts) -> out.add(pooled(name, parts)));
    List<TransactionProfile> overall = new ArrayList<>();
    for (TrialResult t : trials) {
      var w = t.workload();
      overall.add(
          new TransactionProfile(
              "all",
              w.overall().count(),
              w.errors(),
              w.tpccFigures().map(TpccFigures::rollbacks).orElse(0L),
              w.overall()));
    }
    out.add(pooled("all", overall));
    return out;
  }

  private static TransactionProfile pooled(String name, List<TransactionProfile> parts) {
    long calls = parts.stream().mapToLong(TransactionProfile::calls).sum();
    long errors = parts.stream().mapToLong(TransactionProfile::errors).sum();
    long rollbacks = parts.stream().mapToLong(TransactionProfile::rollbacks).sum();
    long count = parts.stream().mapToLong(p -> p.latency().count()).sum();
    LatencySummary pooled =
        new LatencySummary(
            count,
            weighted(parts, LatencySummary::avgMs),
            weighted(parts, LatencySummary::p50Ms),
            weighted(parts, LatencySummary::p95Ms),
            weighted(parts, LatencySummary::p99Ms),
            Num.r(parts.stream().mapToDouble(p -> p.latency().maxMs()).max().orElse(0)));
    return new TransactionProfile(name, calls, errors, rollbacks, pooled);
  }

  private static double weighted(
      List<TransactionProfile> parts, ToDoubleFunction<LatencySummary> figure) {
    double weight = 0;
    double sum = 0;
    for (TransactionProfile p : parts) {
      double w = Math.max(1, p.latency().count());
      weight += w;
      sum += w * figure.applyAsDouble(p.latency());
    }
    return weight == 0 ? 0 : Num.r(sum / weight);
  }
}
