package org.pgknob.server;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every process of the host at one moment, read from /proc/[pid]/stat: who is whose parent, and the
 * CPU each has used, its own and that of the children it reaped. One scan serves both trees a
 * sample needs, the server's and pgknob's own.
 */
final class ProcessTable {
  /**
   * CPU ticks in user and in system mode.
   *
   * @param user utime, plus cutime where the figure takes in reaped children
   * @param sys stime, plus cstime where the figure takes in reaped children
   */
  record CpuTicks(long user, long sys) {
    long total() {
      return user + sys;
    }
  }

  /**
   * Parent pid, start time (which tells a reused pid apart) and CPU ticks of one process: its own,
   * and its reaped children's.
   */
  private record Entry(long parent, long startTicks, CpuTicks own, CpuTicks reapedChildren) {}

  private final Map<Long, Entry> entries;
  private final Map<Long, List<Long>> children;

  private ProcessTable(Map<Long, Entry> entries) {
    this.entries = entries;
    this.children = new HashMap<>();
    entries.forEach(
        (pid, e) -> children.computeIfAbsent(e.parent(), p -> new ArrayList<>()).add(pid));
  }

  /** The processes under {@code proc} (/proc), or none when it cannot be listed. */
  static ProcessTable read(Path proc) {
    Map<Long, Entry> entries = new HashMap<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, "[0-9]*")) {
      for (Path dir : dirs) {
        String[] f = statFields(dir);
        if (f != null && f.length >= 20) {
          entries.put(
              Long.parseLong(dir.getFileName().toString()),
              new Entry(
                  Long.parseLong(f[1]),
                  Long.parseLong(f[19]),
                  new CpuTicks(Long.parseLong(f[11]), Long.parseLong(f[12])),
                  new CpuTicks(Long.parseLong(f[13]), Long.parseLong(f[14]))));
        }
      }
    } catch (IOException e) {
      return new ProcessTable(Map.of());
    }
    return new ProcessTable(entries);
  }

  /**
   * {@code root} and all its descendants, root first, in a new list the caller may change; empty
   * when {@code root} is not running.
   */
  List<Long> tree(long root) {
    List<Long> out = new ArrayList<>();
    if (!entries.containsKey(root)) {
      return out;
    }
    ArrayDeque<Long> todo = new ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      long pid = todo.poll();
      out.add(pid);
      todo.addAll(children.getOrDefault(pid, List.of()));
    }
    return out;
  }

  /** The start time of {@code pid} in clock ticks after boot, or -1 when it is not running. */
  long startTicks(long pid) {
    Entry e = entries.get(pid);
    return e == null ? -1 : e.startTicks();
  }

  /**
   * The start time of {@code pid} under {@code proc} in clock ticks after boot, or -1 when it is
   * not running: one process's stat file, where a whole {@link #read} would scan every process.
   */
  static long startTicks(Path proc, long pid) {
    String[] f = statFields(proc.resolve(Long.toString(pid)));
    return f != null && f.length >= 20 ? Long.parseLong(f[19]) : -1;
  }

  /**
   * CPU ticks {@code pids} have used so far: each one's own time plus the time of the children it
   * reaped, so that a process that ran and exited between two readings (a backend of a connection
   * per transaction, a benchmark command's run) still counts, in its parent's figure. Given a whole
   * tree ({@link #tree}), the sum grows as the tree works, except when a process of the tree exits
   * and is reaped outside it (a daemon re-parented to init): its time then leaves the sum.
   */
  CpuTicks cpuTicks(Collection<Long> pids) {
    long user = 0;
    long sys = 0;
    for (long pid : pids) {
      Entry e = entries.get(pid);
      if (e != null) {
        user += e.own().user() + e.reapedChildren().user();
        sys += e.own().sys() + e.reapedChildren().sys();
      }
    }
    return new CpuTicks(user, sys);
  }

  /**
   * The fields of /proc/[pid]/stat after the command name (which may hold spaces and parentheses):
   * [0] state, [1] ppid, ... [11] utime, [12] stime, [13] cutime, [14] cstime, [19] starttime; null
   * when the process is gone.
   */
  private static String[] statFields(Path dir) {
    try {
      String stat = Files.readString(dir.resolve("stat"));
      int close = stat.lastIndexOf(')');
      return close < 0 ? null : stat.substring(close + 2).trim().split(" ");
    } catch (IOException e) {
      return null;
    }
  }
}
