package org.pgknob.workload.driver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How the driver steers its virtual users through the run's phases (ramp-up, window, stop), and how
 * a user reports a failure that ends the run. Every wait here is bounded and gives up at once when
 * a user has failed.
 */
public final class RunControl {
  public static final int RAMPUP = 0;
  public static final int WINDOW = 1;
  public static final int STOP = 2;

  private volatile int requestedPhase = RAMPUP;
  private final CountDownLatch windowAcks;
  private final CountDownLatch stopAcks;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile boolean statsFlushAllowed = true;

  public RunControl(int users) {
    this.windowAcks = new CountDownLatch(users);
    this.stopAcks = new CountDownLatch(users);
  }

  public int requestedPhase() {
    return requestedPhase;
  }

  public void request(int phase) {
    requestedPhase = phase;
  }

  /** A user entered {@code phase}. */
  public void acknowledge(int phase) {
    if (phase >= WINDOW) {
      windowAcks.countDown();
    }
    if (phase >= STOP) {
      stopAcks.countDown();
    }
  }

  /** A user ended with an error that ends the run; it no longer takes part in any phase. */
  public void fail(Throwable error) {
    failure.compareAndSet(null, error);
    windowAcks.countDown();
    stopAcks.countDown();
  }

  public Throwable failure() {
    return failure.get();
  }

  /**
   * Waits until every user has entered {@code phase}, a user failed, or {@code timeoutMillis}
   * passed.
   *
   * @return true when every user entered it
   */
  public boolean awaitPhase(int phase, long timeoutMillis) throws InterruptedException {
    CountDownLatch latch = phase == WINDOW ? windowAcks : stopAcks;
    return latch.await(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  public long usersNotIn(int phase) {
    return (phase == WINDOW ? windowAcks : stopAcks).getCount();
  }

  /** Sleeps up to {@code millis}, waking early when a user failed. */
  public void sleep(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (failure.get() == null) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return;
      }
      Thread.sleep(Math.min(left, 50));
    }
  }

  /** False once the server refused pg_stat_force_next_flush (it needs superuser or a grant). */
  public boolean statsFlushAllowed() {
    return statsFlushAllowed;
  }

  public void disallowStatsFlush() {
    statsFlushAllowed = false;
  }
}
