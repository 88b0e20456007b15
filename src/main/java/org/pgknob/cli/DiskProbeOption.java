package org.pgknob.cli;

import org.pgknob.PgknobException;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.Target;
import picocli.CommandLine.Option;

/**
 * {@code --disk-probe} (tune, compare): record the disk's synchronous write rate during each window
 * of the managed cluster. Off by default: the probe writes inside the window, beside the server's
 * own WAL fsyncs, so it perturbs what it measures, and validation does not use its rate.
 */
final class DiskProbeOption {
  @Option(
      names = "--disk-probe",
      description =
          "Probe the managed cluster's disk during each window (0.1 s of 8 kB synchronous writes a"
              + " second beside the data directory) and record its rate with each trial; a"
              + " diagnostic, off by default because it competes with the server's own writes.")
  boolean on;

  /**
   * Turns the probe on for {@code target} when asked; refuses a server elsewhere (pgknob cannot
   * write beside its data directory), closing it, before any trial.
   */
  Target applyTo(Target target) {
    if (!on) {
      return target;
    }
    if (target instanceof ManagedCluster cluster) {
      cluster.probeDiskInWindows(true);
      return target;
    }
    target.close();
    throw new PgknobException(
        "--disk-probe writes beside the managed cluster's data directory, which a server elsewhere"
            + " does not give pgknob",
        "leave out --disk-probe with --target");
  }
}
