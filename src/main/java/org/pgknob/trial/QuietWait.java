package org.pgknob.trial;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.pgknob.server.ProcessSample;
import org.pgknob.server.ProcessSampler;
import org.pgknob.server.ResourceSummary;

/**
 * Waits until the host has been quiet for {@value #QUIET_SAMPLES} samples in a row (other
 * processes' CPU under the disturbed line, {@link ResourceSummary#overTheLine}), or until a longest
 * wait has passed. Three seconds, not one: a build's or a cron job's CPU dips for a second between
 * its steps, and a window run again at such a dip would be disturbed as the first was.
 */
final class QuietWait {
  /** Quiet samples in a row that end the wait. */
  static final int QUIET_SAMPLES = 3;

  private QuietWait() {}

  /**
   * How a wait ended.
   *
   * @param quiet whether the host went quiet within the longest wait
   * @param waited how long it waited
   * @param busyCores the highest of other processes' CPU seen, in cores
   */
  record Outcome(boolean quiet, Duration waited, double busyCores) {}

  /**
   * Waits on {@code sampler} (started here, closed by the caller) for the host to go quiet, at most
   * {@code longest}.
   */
  static Outcome on(ProcessSampler sampler, Duration longest) throws InterruptedException {
    BlockingQueue<ProcessSample> samples = new LinkedBlockingQueue<>();
    sampler.addListener(samples::add);
    long start = System.nanoTime();
    long deadline = start + longest.toNanos();
    sampler.start();
    int quietInARow = 0;
    double busiest = 0;
    boolean first = true;
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return new Outcome(false, since(start), busiest);
      }
      ProcessSample s = samples.poll(left, TimeUnit.NANOSECONDS);
      if (s == null) {
        continue; // the deadline passed, or an agent sent nothing new: the loop decides
      }
      boolean unmeasured = first && s.hostBusyCores() == 0;
      first = false;
      if (unmeasured) {
        continue; // a sampler's first reading of /proc has nothing to measure CPU against
      }
      busiest = Math.max(busiest, s.foreignCpuCores());
      quietInARow =
          ResourceSummary.overTheLine(s.foreignCpuCores(), s.hostCores()) ? 0 : quietInARow + 1;
      if (quietInARow >= QUIET_SAMPLES) {
        return new Outcome(true, since(start), busiest);
      }
    }
  }

  private static Duration since(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }
}
