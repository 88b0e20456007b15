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
 * The CPU the server's client backends used, per database, with their parallel workers counted with
 * their leader's database. Clients of other databases than the workload's (a user's report, a
 * nightly pg_dump, a cron job on the same server) take cores the trial would have had, as a build
 * beside the server does, but they are the server's processes, so the host's figures alone count
 * them as the server's own work: {@link ProcessSample#otherDatabasesAsForeign} moves them.
 *
 * <p>Counted per process between two readings, so a backend must live across two samples to count
 * (a long query, the kind that disturbs a window); a short one's time ends up in the postmaster's
 * reaped children, and stays the server's. The server's own processes (checkpointer, autovacuum,
 * WAL senders) belong to no database here.
 */
final class ClientsCpu {
  private Map<Long, Reading> previous = Map.of();
  private Map<Long, Kind> kinds = Map.of();

  /** One process's CPU at a reading; {@code startTicks} tells a reused pid apart. */
  private record Reading(long startTicks, long user, long sys) {}

  /**
   * What a process's title said it is: a client backend of {@code database} (else null), or a
   * parallel worker of {@code leader} (else -1). A backend keeps its database for life, so the
   * title is read once per process, not once a second.
   */
  private record Kind(long startTicks, String database, long leader) {}

  /**
   * The ticks each database's clients used since the last call (databases whose clients used none
   * are left out), of the processes in {@code pids} (the server's tree in {@code table}), their
   * titles read under {@code proc}.
   */
  Map<String, ProcessTable.CpuTicks> rise(ProcessTable table, List<Long> pids, Path proc) {
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
    Map<String, ProcessTable.CpuTicks> byDatabase = new HashMap<>();
    for (Map.Entry<Long, Kind> e : known.entrySet()) {
      String database = database(e.getValue(), known);
      if (database == null) {
        continue;
      }
      long pid = e.getKey();
      ProcessTable.CpuTicks ticks = table.cpuTicks(List.of(pid));
      Reading now = new Reading(e.getValue().startTicks(), ticks.user(), ticks.sys());
      current.put(pid, now);
      Reading before = previous.get(pid);
      if (before != null && before.startTicks() == now.startTicks()) {
        long user = Math.max(0, now.user() - before.user());
        long sys = Math.max(0, now.sys() - before.sys());
        if (user + sys > 0) {
          byDatabase.merge(
              database,
              new ProcessTable.CpuTicks(user, sys),
              (a, b) -> new ProcessTable.CpuTicks(a.user() + b.user(), a.sys() + b.sys()));
        }
      }
    }
    previous = current;
    return byDatabase;
  }

  /** A client backend's database, or its leader's for a parallel worker; null for the server's. */
  private static String database(Kind kind, Map<Long, Kind> known) {
    if (kind.database() != null) {
      return kind.database();
    }
    Kind leader = known.get(kind.leader());
    return leader == null ? null : leader.database();
  }

  /**
   * The kind a title says, or null while the process has no title of its own yet (a child just
   * forked still shows the postmaster's command line): it is read again at the next sample.
   */
  private static Kind kind(long startTicks, String title) {
    if (!title.startsWith("postgres: ")) {
      return null;
    }
    Optional<String> database = BackendTitle.clientDatabase(title);
    OptionalLong leader = BackendTitle.parallelLeader(title);
    return new Kind(startTicks, database.orElse(null), leader.orElse(-1));
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
