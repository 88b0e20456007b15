package org.pgknob.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The CPU the server's processes spent for clients other than the workload: backends of other
 * databases (a user's report, a nightly pg_dump, a cron job on the same server) and their parallel
 * workers. They take cores the trial would have had, as a build beside the server does, but they
 * are the server's processes, so the host's figures alone count them as the server's own work.
 *
 * <p>Counted per process between two readings, so a backend must live across two samples to count
 * (a long query, the kind that disturbs a window); a short one's time ends up in the postmaster's
 * reaped children, and stays the server's. Only for a workload whose clients all use one known
 * database: pgknob's own drivers. A benchmark command may use any database.
 */
final class OtherClientsCpu {
  private final String workloadDatabase;
  private Map<Long, Reading> previous = Map.of();
  private Map<Long, Kind> kinds = Map.of();

  /** One process's CPU at a reading; {@code startTicks} tells a reused pid apart. */
  private record Reading(long startTicks, long user, long sys) {}

  /**
   * What a process's title said it is: another database's backend ({@code other}), or a parallel
   * worker of {@code leader} (else -1). A backend keeps its database for life, so the title is read
   * once per process, not once a second.
   */
  private record Kind(long startTicks, boolean other, long leader) {}

  OtherClientsCpu(String workloadDatabase) {
    this.workloadDatabase = workloadDatabase;
  }

  /**
   * The ticks other clients' backends used since the last call, of the processes in {@code pids}
   * (the server's tree in {@code table}), their titles read under {@code proc}.
   */
  ProcessTable.CpuTicks rise(ProcessTable table, List<Long> pids, Path proc) {
    Map<Long, Kind> known = new HashMap<>();
    for (long pid : pids) {
      long startTicks = table.startTicks(pid);
      Kind kind = kinds.get(pid);
      if (kind == null || kind.startTicks() != startTicks) {
        kind = kind(startTicks, title(proc.resolve(Long.toString(pid))));
      }
      if (kind != null) {
        known.put(pid, kind);
      }
    }
    kinds = known;
    Map<Long, Reading> current = new HashMap<>();
    long user = 0;
    long sys = 0;
    for (Map.Entry<Long, Kind> e : known.entrySet()) {
      Kind kind = e.getValue();
      Kind leader = known.get(kind.leader());
      if (!kind.other() && (leader == null || !leader.other())) {
        continue;
      }
      long pid = e.getKey();
      ProcessTable.CpuTicks ticks = table.cpuTicks(List.of(pid));
      Reading now = new Reading(kind.startTicks(), ticks.user(), ticks.sys());
      current.put(pid, now);
      Reading before = previous.get(pid);
      if (before != null && before.startTicks() == now.startTicks()) {
        user += Math.max(0, now.user() - before.user());
        sys += Math.max(0, now.sys() - before.sys());
      }
    }
    previous = current;
    return new ProcessTable.CpuTicks(user, sys);
  }

  /**
   * The kind a title says, or null while the process has no title of its own yet (a child just
   * forked still shows the postmaster's command line): it is read again at the next sample.
   */
  private Kind kind(long startTicks, String title) {
    if (!title.startsWith("postgres: ")) {
      return null;
    }
    Optional<String> database = BackendTitle.clientDatabase(title);
    OptionalLong leader = BackendTitle.parallelLeader(title);
    return new Kind(
        startTicks,
        database.isPresent() && !database.get().equals(workloadDatabase),
        leader.orElse(-1));
  }

  /** The process's title, NULs as spaces; empty when it is gone or unreadable. */
  private static String title(Path dir) {
    try {
      return new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ')
          .strip();
    } catch (IOException e) {
      return "";
    }
  }
}
