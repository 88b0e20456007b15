package org.pgknob.server;

import java.util.Map;

/**
 * One reading of the server's process tree (the postmaster and all its children) and of the host.
 *
 * @param epochMillis when it was taken
 * @param processes how many server processes were found
 * @param rssBytes summed resident set size (shared memory counted once per process, as pidstat)
 * @param pssBytes summed proportional set size from smaps_rollup (shared memory counted once)
 * @param cpuUserPct user CPU since the previous reading, 100 = one core
 * @param cpuSysPct system CPU since the previous reading, 100 = one core
 * @param readBytesPerSec bytes read from storage per second since the previous reading
 * @param writeBytesPerSec bytes written to storage per second since the previous reading
 * @param hostMemTotalBytes MemTotal of /proc/meminfo
 * @param hostMemAvailableBytes MemAvailable of /proc/meminfo
 * @param cgroupLimitBytes the memory limit of pgknob's cgroup, or 0 when none applies
 * @param hostCores the host's cores as /proc/stat lists them, or 0 when unknown
 * @param hostBusyCores CPU the whole host used since the previous reading, in cores
 * @param ownCpuCores CPU pgknob used, in cores: this JVM (with the built-in workloads' driver) and
 *     the processes it started, a {@code --workload-cmd} benchmark among them
 * @param foreignCpuCores CPU used by everything else on the host, neither the server nor pgknob:
 *     host busy minus both, in cores, never below 0
 * @param cgroupCpus the CPUs the CPU quota of the server's cgroup allows, rounded up (cgroup v2
 *     cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us), or 0 when no quota applies; an agent of an
 *     older pgknob does not send it, which reads as 0
 * @param diskFreeBytes the least free space of the filesystems holding the server's data directory
 *     and its WAL, in bytes, or -1 when unknown (this host cannot see them, or an agent of an older
 *     pgknob did not send it)
 * @param walRoomBytes the free space of the WAL's filesystem plus the WAL pg_wal holds, in bytes
 *     (pg_wal's size summed again every 10 s), or -1 when unknown or not read (only the agent's
 *     sampler reads it, {@link ProcessSampler#readWalRoom}): what the disk rule of a server on
 *     another host is measured against
 * @param clientCpuByDatabase the CPU of the server's client backends (with their parallel workers)
 *     per database, in cores, databases whose clients used none left out; empty when not read (a
 *     sampler not asked to, or an agent of an older pgknob). A sampler told the workload's database
 *     moves the other databases' share to the foreign CPU ({@link #otherDatabasesAsForeign}); the
 *     agent, which cannot know that database, sends the whole breakdown for the tuner to do so
 */
public record ProcessSample(
    long epochMillis,
    int processes,
    long rssBytes,
    long pssBytes,
    double cpuUserPct,
    double cpuSysPct,
    double readBytesPerSec,
    double writeBytesPerSec,
    long hostMemTotalBytes,
    long hostMemAvailableBytes,
    long cgroupLimitBytes,
    int hostCores,
    double hostBusyCores,
    double ownCpuCores,
    double foreignCpuCores,
    int cgroupCpus,
    long diskFreeBytes,
    long walRoomBytes,
    Map<String, ClientCpu> clientCpuByDatabase) {
  /** The CPU one database's clients used, in cores. */
  public record ClientCpu(double userCores, double sysCores) {}

  public ProcessSample {
    clientCpuByDatabase = clientCpuByDatabase == null ? Map.of() : Map.copyOf(clientCpuByDatabase);
  }

  /**
   * The cores the server may use: the host's, or fewer under a cgroup CPU quota; 0 when neither is
   * known.
   */
  public int usableCores() {
    if (cgroupCpus > 0 && (hostCores <= 0 || cgroupCpus < hostCores)) {
      return cgroupCpus;
    }
    return Math.max(0, hostCores);
  }

  /**
   * This sample with the CPU of other databases' clients than {@code workloadDatabase} moved from
   * the server's figures to the foreign CPU: they take cores the trial would have had, as any other
   * process on the host does. Without the host's busy time there is nothing to subtract from, and
   * the foreign CPU is then theirs alone, not a guess.
   */
  public ProcessSample otherDatabasesAsForeign(String workloadDatabase) {
    double otherUser = 0;
    double otherSys = 0;
    for (Map.Entry<String, ClientCpu> e : clientCpuByDatabase.entrySet()) {
      if (!e.getKey().equals(workloadDatabase)) {
        otherUser += e.getValue().userCores();
        otherSys += e.getValue().sysCores();
      }
    }
    if (otherUser + otherSys <= 0) {
      return this;
    }
    // Readings taken a moment apart may disagree slightly: never below zero.
    double user = Math.max(0, cpuUserPct - otherUser * 100);
    double sys = Math.max(0, cpuSysPct - otherSys * 100);
    double moved = (cpuUserPct - user + cpuSysPct - sys) / 100;
    double foreign =
        hostBusyCores == 0 ? moved : Math.max(0, hostBusyCores - (user + sys) / 100 - ownCpuCores);
    return new ProcessSample(
        epochMillis,
        processes,
        rssBytes,
        pssBytes,
        user,
        sys,
        readBytesPerSec,
        writeBytesPerSec,
        hostMemTotalBytes,
        hostMemAvailableBytes,
        cgroupLimitBytes,
        hostCores,
        hostBusyCores,
        ownCpuCores,
        foreign,
        cgroupCpus,
        diskFreeBytes,
        walRoomBytes,
        clientCpuByDatabase);
  }
}
