package org.pgknob.workload.driver;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.TransactionProfile;

/**
 * The driver's figures over the window, merged from every client's.
 *
 * @param profiles one per transaction type, in the plan's order
 * @param overall latency over every call of the window
 * @param committed calls committed
 * @param errors calls that failed with a transient error
 * @param rollbacks calls rolled back as the workload asks
 */
public record WindowFigures(
    List<TransactionProfile> profiles,
    LatencySummary overall,
    long committed,
    long errors,
    long rollbacks) {

  static WindowFigures merge(List<String> typeNames, List<ClientStats> clients) {
    List<TransactionProfile> profiles = new ArrayList<>();
    Histogram all = Latencies.histogram();
    long committed = 0;
    long errors = 0;
    long rollbacks = 0;
    for (int i = 0; i < typeNames.size(); i++) {
      Histogram h = Latencies.histogram();
      long calls = 0;
      long typeErrors = 0;
      long typeRollbacks = 0;
      for (ClientStats c : clients) {
        h.add(c.windowLatencyMicros[i]);
        calls += c.windowCalls[i];
        typeErrors += c.windowErrors[i];
        typeRollbacks += c.windowRollbacks[i];
      }
      all.add(h);
      profiles.add(
          new TransactionProfile(
              typeNames.get(i), calls, typeErrors, typeRollbacks, Latencies.summary(h)));
      committed += calls - typeRollbacks;
      errors += typeErrors;
      rollbacks += typeRollbacks;
    }
    return new WindowFigures(
        profiles, Latencies.summaryWithPercentiles(all), committed, errors, rollbacks);
  }

  /** The profile of transaction type {@code type}. */
  public TransactionProfile profile(int type) {
    return profiles.get(type);
  }
}
