package org.pgknob.workload.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.SecondSample;

/**
 * Once a second, the committed transactions and their average latency over the last second, from
 * every user's running totals: the run's timeline, and the live figures a listener shows.
 */
public final class TimelineSampler implements Runnable {
  private final List<? extends RunningTotals> users;
  private final BooleanSupplier inWindow;
  private final RunListener listener;
  private final List<SecondSample> samples = Collections.synchronizedList(new ArrayList<>());
  private long lastCommitted;
  private long lastLatencyMicros;
  private int second;

  public TimelineSampler(
      List<? extends RunningTotals> users, BooleanSupplier inWindow, RunListener listener) {
    this.users = users;
    this.inWindow = inWindow;
    this.listener = listener;
  }

  @Override
  public void run() {
    long committed = 0;
    long latencyMicros = 0;
    for (RunningTotals u : users) {
      committed += u.committedTotal();
      latencyMicros += u.committedLatencyMicrosTotal();
    }
    long n = committed - lastCommitted;
    double avgMs = n == 0 ? 0 : (latencyMicros - lastLatencyMicros) / 1000.0 / n;
    lastCommitted = committed;
    lastLatencyMicros = latencyMicros;
    second++;
    SecondSample sample = new SecondSample(second, inWindow.getAsBoolean(), n, avgMs);
    samples.add(sample);
    try {
      listener.second(sample);
    } catch (RuntimeException e) {
      // A display's failure must not end the run.
    }
  }

  public List<SecondSample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }
}
