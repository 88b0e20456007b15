package org.pgknob.cli;

import org.pgknob.session.PgTuneOptions;
import org.pgknob.session.StorageType;
import picocli.CommandLine.Option;

/**
 * --storage, --cpus and --connections: the machine as the PGTune-style configuration should see it,
 * named as pgtune and timescaledb-tune name them. Shared as a mixin by tune.
 */
public final class PgTuneMachineOptions {
  @Option(
      names = "--storage",
      paramLabel = "ssd|hdd|network",
      description =
          "The data's storage, for the PGTune-style row (effective_io_concurrency,"
              + " random_page_cost); default: the data folder's device says (a VM's virtio disk"
              + " often claims to be rotational: give ssd).")
  String storage;

  @Option(
      names = "--cpus",
      paramLabel = "N",
      description = "Cores for the PGTune-style row (default: the host's).")
  Integer cpus;

  @Option(
      names = "--connections",
      paramLabel = "N",
      description =
          "max_connections for the PGTune-style row; it also sizes work_mem (default: the"
              + " server's, kept as it is).")
  Integer connections;

  PgTuneOptions toOptions() {
    return new PgTuneOptions(
        storage == null ? null : StorageType.parse(storage), cpus, connections);
  }
}
