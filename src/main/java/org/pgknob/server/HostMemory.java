package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The host's memory as the kernel tells it: MemTotal and MemAvailable of /proc/meminfo, and the
 * memory limit of a process's cgroup (v2 {@code memory.max} or v1 {@code memory.limit_in_bytes},
 * the least along the path to the root), or 0 when none applies.
 *
 * @param memTotalBytes MemTotal
 * @param memAvailableBytes MemAvailable
 * @param cgroupLimitBytes the cgroup memory limit, 0 when unlimited or unknown
 */
public record HostMemory(long memTotalBytes, long memAvailableBytes, long cgroupLimitBytes) {
  /** Limits at or above this are the kernel's way of saying "unlimited" (v1: about 2^63). */
  static final long UNLIMITED_FROM_BYTES = 1L << 60;

  private static final Path PROC = Path.of("/proc");
  private static final Path CGROUP = Path.of("/sys/fs/cgroup");

  /** The host's memory and pgknob's own cgroup limit. */
  public static HostMemory read() {
    return read(ProcessHandle.current().pid());
  }

  /** The host's memory and the cgroup limit that applies to process {@code pid}. */
  public static HostMemory read(long pid) {
    long total = 0;
    long available = 0;
    try {
      for (String line : Files.readAllLines(PROC.resolve("meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          total = kbField(line);
        } else if (line.startsWith("MemAvailable:")) {
          available = kbField(line);
        }
      }
    } catch (IOException e) {
      // not Linux, or /proc hidden: the figures stay 0 and callers say so
    }
    return new HostMemory(total, available, cgroupLimitBytes(pid));
  }

  /** The cgroup memory limit of {@code pid}, or 0 when there is none. */
  static long cgroupLimitBytes(long pid) {
    List<String> lines;
    try {
      lines = Files.readAllLines(PROC.resolve(Long.toString(pid)).resolve("cgroup"));
    } catch (IOException e) {
      return 0;
    }
    long least = 0;
    for (String line : lines) {
      String[] parts = line.split(":", 3);
      if (parts.length < 3) {
        continue;
      }
      String relative = parts[2].startsWith("/") ? parts[2].substring(1) : parts[2];
      if (parts[0].equals("0") && parts[1].isEmpty()) {
        least = lesser(least, along(CGROUP, relative, "memory.max"));
      } else if (List.of(parts[1].split(",")).contains("memory")) {
        least = lesser(least, along(CGROUP.resolve("memory"), relative, "memory.limit_in_bytes"));
      }
    }
    return least;
  }

  /**
   * The least limit in {@code file} from the cgroup's folder up to the mount's root. Inside a
   * container the path may not exist under the mount (cgroup namespaces): the root's file applies.
   */
  private static long along(Path mount, String relative, String file) {
    long least = 0;
    Path dir = relative.isEmpty() ? mount : mount.resolve(relative);
    for (; dir != null && dir.startsWith(mount); dir = dir.getParent()) {
      least = lesser(least, limitIn(dir.resolve(file)));
    }
    return least;
  }

  private static long limitIn(Path file) {
    try {
      String text = Files.readString(file).trim();
      if (text.equals("max")) {
        return 0;
      }
      long v = Long.parseLong(text);
      return v >= UNLIMITED_FROM_BYTES ? 0 : v;
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  private static long lesser(long a, long b) {
    if (a == 0) {
      return b;
    }
    return b == 0 ? a : Math.min(a, b);
  }

  private static long kbField(String line) {
    String[] parts = line.trim().split("\\s+");
    return Long.parseLong(parts[1]) * 1024;
  }
}
