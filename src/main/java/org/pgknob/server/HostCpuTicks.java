package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The host's CPU time since boot from the aggregate {@code cpu} line of /proc/stat, in USER_HZ
 * ticks summed over all cores, and the number of cores (the {@code cpuN} lines).
 *
 * <p>Busy is user + nice + system + irq + softirq + steal; idle is idle + iowait (a core waiting
 * for I/O could run anything else). guest and guest_nice are left out because the kernel already
 * counts them in user and nice.
 *
 * @param busyTicks ticks the cores spent running something
 * @param idleTicks ticks the cores spent idle or waiting for I/O
 * @param cores the number of cores /proc/stat lists
 */
public record HostCpuTicks(long busyTicks, long idleTicks, int cores) {
  private static final Path PROC_STAT = Path.of("/proc/stat");

  /** Parses the text of /proc/stat; the aggregate line must be there. */
  public static HostCpuTicks parse(String procStat) {
    long busy = -1;
    long idle = -1;
    int cores = 0;
    for (String line : procStat.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f[0].equals("cpu")) {
        if (f.length < 8) {
          throw new IllegalArgumentException("the cpu line of /proc/stat is too short: " + line);
        }
        // fields after "cpu": user nice system idle iowait irq softirq [steal guest guest_nice]
        long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
        busy =
            Long.parseLong(f[1])
                + Long.parseLong(f[2])
                + Long.parseLong(f[3])
                + Long.parseLong(f[6])
                + Long.parseLong(f[7])
                + steal;
        idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
      } else if (f[0].startsWith("cpu")) {
        cores++;
      }
    }
    if (busy < 0) {
      throw new IllegalArgumentException("/proc/stat has no aggregate cpu line");
    }
    return new HostCpuTicks(busy, idle, Math.max(1, cores));
  }

  /** This host's figures now, or null when /proc/stat cannot be read (not Linux). */
  public static HostCpuTicks read() {
    try {
      return parse(Files.readString(PROC_STAT));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
