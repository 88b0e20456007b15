package org.pgknob.workload.tprocc;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.TransactionProfile;
import org.pgknob.workload.driver.Latencies;

/** The driver's figures over the window, merged from every user's. */
final class WindowFigures {
  final List<TransactionProfile> profiles = new ArrayList<>();
  final LatencySummary overall;
  final long committed;
  final long errors;
  final long rollbacks;
  final long newOrdersCommitted;

  WindowFigures(List<UserStats> users) {
    Histogram all = new Histogram(UserStats.HIGHEST_MICROS, 3);
    long committedSum = 0;
    long errorSum = 0;
    long rollbackSum = 0;
    long newOrders = 0;
    for (TransactionType type : TransactionType.values()) {
      int i = type.ordinal();
      Histogram h = new Histogram(UserStats.HIGHEST_MICROS, 3);
      long calls = 0;
      long errors = 0;
      long rollbacks = 0;
      for (UserStats u : users) {
        h.add(u.windowLatencyMicros[i]);
        calls += u.windowCalls[i];
        errors += u.windowErrors[i];
        rollbacks += u.windowRollbacks[i];
      }
      all.add(h);
      profiles.add(
          new TransactionProfile(type.label(), calls, errors, rollbacks, Latencies.summary(h)));
      committedSum += calls - rollbacks;
      errorSum += errors;
      rollbackSum += rollbacks;
      if (type == TransactionType.NEW_ORDER) {
        newOrders = calls - rollbacks;
      }
    }
    this.overall = Latencies.summaryWithPercentiles(all);
    this.committed = committedSum;
    this.errors = errorSum;
    this.rollbacks = rollbackSum;
    this.newOrdersCommitted = newOrders;
  }
}
