package org.pgknob.server;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The server's resource use over a window, from the process-tree sampler: CPU of all postgres
 * processes (100 = one core), memory summed over processes as RSS (shared memory counted once per
 * process, what pidstat users see) and as PSS (shared memory counted once), disk I/O rates. {@code
 * available} is false for a server on another host, and every figure is then zero.
 *
 * <p>The host's CPU used by anything other than the server and pgknob (its JVM and the processes it
 * started, a {@code --workload-cmd} benchmark among them), such as a build or another benchmark, is
 * the foreign CPU: on a shared machine it takes cores the trial would have used, so the trial's TPS
 * can be low for reasons that have nothing to do with its configuration. {@code hostCores} is 0 in
 * records written before pgknob measured it: such a trial is never called disturbed. In JSON the
 * three host figures are left out when 0 (a server on another host, or a window without foreign
 * load), so records without them read back the same.
 *
 * @param foreignCpuAvgCores mean foreign CPU over the window, in cores
 * @param foreignCpuPeakCores highest foreign CPU of one sample in the window, in cores
 * @param hostCores the host's cores, or 0 when not measured
 * @param diskSyncWritesPerSec the disk's synchronous 8 kB write rate during the window ({@link
 *     DiskProbe}, geometric mean of one burst a second), or 0 when not probed (a server elsewhere,
 *     a record written before pgknob probed): left out of the JSON then
 * @param diskFreeLeastBytes the least free space of the server's data and WAL disks over the
 *     window, or null when not read (a disk this host cannot see, a record written before pgknob
 *     read it): left out of the JSON then
 */
public record ResourceSummary(
    boolean available,
    double cpuUserPct,
    double cpuSysPct,
    long rssAvgBytes,
    long rssPeakBytes,
    long pssAvgBytes,
    long pssPeakBytes,
    double readMBps,
    double writeMBps,
    int samples,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) double foreignCpuAvgCores,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) double foreignCpuPeakCores,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) int hostCores,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) double diskSyncWritesPerSec,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long diskFreeLeastBytes) {
  /**
   * A trial is disturbed when other processes used, on average over its window, more than this
   * share of the host's cores (on 2 cores: more than a quarter of a core). Below it the noise of
   * 1-second tick counting and short system daemons stays (a quiet TPROC-C session here: a median
   * of 0.035 cores); above it a concurrent build, benchmark or query is taking CPU the server and
   * the driver would have used. It was a quarter of the cores until another client's query that
   * covered a third to half of a window (0.3 to 0.49 of 2 cores) took 10 to 20% of its TPS
   * unmarked, and three such baselines made PGTune-style read 1.18x (1.06 to 1.33), a gain it did
   * not have.
   */
  public static final double DISTURBED_FOREIGN_CPU_SHARE = 0.125;

  public static final ResourceSummary UNAVAILABLE =
      new ResourceSummary(false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null);

  /**
   * True when other processes took more than {@link #DISTURBED_FOREIGN_CPU_SHARE} of the host's
   * cores on average over the window; false when that was not measured.
   */
  public boolean disturbedByOtherProcesses() {
    return available && overTheLine(foreignCpuAvgCores, hostCores);
  }

  /**
   * Whether {@code foreignCores} of other processes' CPU exceed {@link
   * #DISTURBED_FOREIGN_CPU_SHARE} of {@code hostCores}: a window's mean, or one sample's figure
   * when pgknob waits for the host to go quiet. False when the cores are not known (0).
   */
  public static boolean overTheLine(double foreignCores, int hostCores) {
    return hostCores > 0 && foreignCores > DISTURBED_FOREIGN_CPU_SHARE * hostCores;
  }
}
