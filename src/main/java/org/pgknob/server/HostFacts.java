package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Figures of this host from /proc and /sys: memory, and the cgroup memory and CPU limits of a
 * process (a server in a container must be tuned for its limits, not the host's RAM and cores).
 */
final class HostFacts {
  private HostFacts() {}

  /** MemTotal of /proc/meminfo in bytes. */
  static OptionalLong memTotalBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return OptionalLong.of(Long.parseLong(line.replaceAll("\\D+", "")) * 1024);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux, or /proc hidden: unknown
    }
    return OptionalLong.empty();
  }

  /**
   * The memory limit of the cgroup {@code pid} belongs to (cgroup v2 memory.max, or v1
   * memory.limit_in_bytes), or empty when none applies.
   */
  static OptionalLong cgroupMemoryLimitBytes(long pid) {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"));
      for (String line : lines) {
        String[] parts = line.split(":", 3);
        if (parts.length != 3) {
          continue;
        }
        if (parts[0].equals("0") && parts[1].isEmpty()) {
          OptionalLong limit = readLimit(Path.of("/sys/fs/cgroup" + parts[2], "memory.max"));
          if (limit.isPresent()) {
            return limit;
          }
          return readLimit(Path.of("/sys/fs/cgroup/memory.max"));
        }
        if (List.of(parts[1].split(",")).contains("memory")) {
          return readLimit(Path.of("/sys/fs/cgroup/memory" + parts[2], "memory.limit_in_bytes"));
        }
      }
    } catch (IOException e) {
      // no cgroup information: no limit known
    }
    return OptionalLong.empty();
  }

  /**
   * The CPUs the cgroup of {@code pid} may use, rounded up (cgroup v2 cpu.max, or v1
   * cpu.cfs_quota_us / cpu.cfs_period_us), or empty when no quota applies.
   */
  static OptionalInt cgroupCpuLimit(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
        String[] parts = line.split(":", 3);
        if (parts.length != 3) {
          continue;
        }
        if (parts[0].equals("0") && parts[1].isEmpty()) {
          OptionalInt v2 = cpuMax(Path.of("/sys/fs/cgroup" + parts[2], "cpu.max"));
          if (v2.isPresent()) {
            return v2;
          }
        } else if (List.of(parts[1].split(",")).contains("cpu")) {
          Path dir = Path.of("/sys/fs/cgroup/cpu" + parts[2]);
          if (!Files.isDirectory(dir)) {
            dir = Path.of("/sys/fs/cgroup/cpu,cpuacct" + parts[2]);
          }
          OptionalLong quota = readLimit(dir.resolve("cpu.cfs_quota_us"));
          OptionalLong period = readLimit(dir.resolve("cpu.cfs_period_us"));
          if (quota.isPresent() && quota.getAsLong() > 0 && period.isPresent()) {
            return OptionalInt.of(cpus(quota.getAsLong(), period.getAsLong()));
          }
        }
      }
    } catch (IOException e) {
      // no cgroup information: no limit known
    }
    return OptionalInt.empty();
  }

  /** cgroup v2 cpu.max: "max 100000" (no limit) or "50000 100000". */
  private static OptionalInt cpuMax(Path file) {
    try {
      String[] f = Files.readString(file).strip().split("\\s+");
      if (f.length == 2 && !f[0].equals("max")) {
        return OptionalInt.of(cpus(Long.parseLong(f[0]), Long.parseLong(f[1])));
      }
    } catch (IOException | NumberFormatException e) {
      // not there or not understood: no limit known
    }
    return OptionalInt.empty();
  }

  /** A quota of 1.5 periods is 2 CPUs' worth of parallelism, never less than 1. */
  private static int cpus(long quota, long period) {
    return (int) Math.max(1, (quota + period - 1) / Math.max(1, period));
  }

  private static OptionalLong readLimit(Path file) {
    try {
      String text = Files.readString(file).strip();
      long limit = Long.parseLong(text);
      // cgroup v1 writes "no limit" as a number near 2^63.
      return limit >= Long.MAX_VALUE / 2 ? OptionalLong.empty() : OptionalLong.of(limit);
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty(); // "max", or the file is not there
    }
  }
}
