package org.pgknob.server;

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
    long walRoomBytes) {
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
}
