package org.pgknob.trial;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.pgknob.server.PrimaryHazard;
import org.pgknob.server.PrimaryHazards;
import org.pgknob.server.ServerProbe;
import org.pgknob.server.Target;
import org.pgknob.workload.SecondSample;

/**
 * Notices during a run that the server stopped answering, so that a trial over a dropped link ends
 * in seconds, not after the workload's stop timeout (30 s) or the trial's own (minutes): the
 * workload's connections would wait on their sockets that long.
 *
 * <p>It probes only when the workload committed nothing for {@value #STALL_SECONDS} seconds in a
 * row, on a thread of its own: a workload that commits is never disturbed by an extra connection,
 * and a stall the server explains (a long checkpoint) costs one connection that answers. A server
 * that answers is then asked for a {@link PrimaryHazard}: commits that wait for a synchronous
 * standby that went away stall every backend while the server answers, and the workload's
 * connections would wait the driver's socket timeout (minutes), then blame the configuration.
 */
final class ServerWatch implements AutoCloseable {
  static final int STALL_SECONDS = 3;

  private final Target target;
  private final ExecutorService prober =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "pgknob-server-watch");
            t.setDaemon(true);
            return t;
          });
  private final AtomicBoolean probing = new AtomicBoolean();
  private int stalledSeconds; // the workload's sampling thread only
  private volatile String lost;
  private volatile PrimaryHazard hazard;

  ServerWatch(Target target) {
    this.target = target;
  }

  /** One second of the run, from the workload's sampling thread. */
  void second(SecondSample sample) {
    if (sample.committed() > 0) {
      stalledSeconds = 0;
      return;
    }
    if (++stalledSeconds < STALL_SECONDS
        || lost != null
        || hazard != null
        || !probing.compareAndSet(false, true)) {
      return;
    }
    stalledSeconds = 0;
    prober.execute(
        () -> {
          try {
            Optional<String> unreachable = ServerProbe.unreachable(target);
            if (unreachable.isPresent()) {
              lost = unreachable.get();
            } else {
              PrimaryHazards.find(target).ifPresent(found -> hazard = found);
            }
          } finally {
            probing.set(false);
          }
        });
  }

  /** Why the server could not be reached, once a probe found it so. */
  Optional<String> lost() {
    return Optional.ofNullable(lost);
  }

  /** Why the server's commits stall while it answers, once a probe found a hazard that says so. */
  Optional<PrimaryHazard> hazard() {
    return Optional.ofNullable(hazard);
  }

  @Override
  public void close() {
    prober.shutdownNow();
  }
}
