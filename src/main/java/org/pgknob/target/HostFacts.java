package org.pgknob.target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/** Figures of this host from /proc and /sys: memory and the cgroup memory limit of a process. */
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
