package org.pgknob.session;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.report.DbaRounding;
import org.pgknob.server.SettingCatalog;

/**
 * The PGTune-style OLTP configuration (le0pard/pgtune's public formulas, as of 2026) that the
 * session measures beside the defaults and the tuned optima, so the report answers "better than
 * what a calculator gives?".
 *
 * <p>Memory is computed in kB as PGTune does, then written as a DBA writes it ({@link DbaRounding}:
 * 6GB, 18GB, 73MB, within 5%). Settings the server allocates once per connection or worker
 * (work_mem, maintenance_work_mem) are only rounded down, so the rounding never adds to the
 * predicted memory in multiples; shared_buffers may round up by at most 5% (about 1% of RAM, far
 * inside the 90% limit PGTune's total of about 65% of RAM leaves), wal_buffers never past its 16 MB
 * cap, effective_cache_size freely (nothing is allocated for it). Only settings the server knows
 * are given, and an enum value only where the server accepts it (wal_compression = lz4 needs a
 * server built with lz4; io_method = io_uring needs liburing). Choices where PGTune's text leaves
 * room, fixed here:
 *
 * <ul>
 *   <li>work_mem: the base value times 1.3 (database smaller than RAM) or 0.9 (larger), rounded
 *       down, then at least 4 MB. With fewer than 4 CPUs PGTune leaves max_worker_processes alone,
 *       so the server's running value enters the formula.
 *   <li>random_page_cost: 4 on HDD when the database is larger than RAM, else 1.1 (reads from a
 *       cached database or solid-state storage cost about the same at random as in sequence).
 *   <li>max_connections needs a restart and sizes work_mem: the server's value is kept and used
 *       unless the user gives one.
 * </ul>
 *
 * @param ramBytes the RAM the server may use (the least of MemTotal, cgroup limit and --ram)
 * @param cpus cores available to the server
 * @param storage the kind of disk
 * @param databaseLargerThanRam true when the database does not fit in RAM
 * @param maxConnections the user's max_connections, or null to keep the server's
 */
public record PgTuneConfig(
    long ramBytes,
    int cpus,
    StorageType storage,
    boolean databaseLargerThanRam,
    Integer maxConnections) {
  private static final long KB_PER_MB = 1024;
  private static final long KB_PER_GB = 1024 * 1024;

  public PgTuneConfig {
    if (ramBytes < 256L * 1024 * 1024 || cpus < 1) {
      throw new IllegalArgumentException(
          "PGTune needs at least 256 MB of RAM and 1 CPU, but got "
              + ramBytes
              + " bytes and "
              + cpus
              + " CPUs");
    }
    if (maxConnections != null && maxConnections < 1) {
      throw new IllegalArgumentException("max_connections must be >= 1, but got " + maxConnections);
    }
  }

  /**
   * The settings for {@code server}, as PostgreSQL takes them (name to value with unit), in
   * PGTune's order.
   */
  public Map<String, String> settings(SettingCatalog server) {
    long ramKb = ramBytes / 1024;
    int connections = maxConnections != null ? maxConnections : server.maxConnections();
    Map<String, String> out = new LinkedHashMap<>();
    if (maxConnections != null) {
      out.put("max_connections", Integer.toString(maxConnections));
    }
    long sharedBuffersKb = ramKb / 4;
    out.put("shared_buffers", DbaRounding.memoryKb(sharedBuffersKb, Long.MAX_VALUE));
    out.put("effective_cache_size", DbaRounding.memoryKb(ramKb * 3 / 4, Long.MAX_VALUE));
    long maintenanceKb = Math.min(ramKb / 16, 8 * KB_PER_GB);
    out.put("maintenance_work_mem", DbaRounding.memoryKb(maintenanceKb, maintenanceKb));
    out.put("checkpoint_completion_target", "0.9");
    out.put("wal_buffers", DbaRounding.memoryKb(walBuffersKb(sharedBuffersKb), 16 * KB_PER_MB));
    out.put("default_statistics_target", "100");
    out.put("random_page_cost", storage == StorageType.HDD && databaseLargerThanRam ? "4" : "1.1");
    out.put("effective_io_concurrency", Integer.toString(effectiveIoConcurrency()));
    int workerProcesses = cpus >= 4 ? cpus : server.maxWorkerProcesses();
    long workMemKb = workMemKb(ramKb, sharedBuffersKb, connections, workerProcesses);
    out.put("work_mem", DbaRounding.memoryKb(workMemKb, workMemKb));
    out.put("huge_pages", sharedBuffersKb >= 2 * KB_PER_GB ? "try" : "off");
    out.put("min_wal_size", "2GB");
    out.put("max_wal_size", "8GB");
    if (cpus >= 4) {
      int half = Math.min((cpus + 1) / 2, 4);
      out.put("max_worker_processes", Integer.toString(cpus));
      out.put("max_parallel_workers_per_gather", Integer.toString(half));
      out.put("max_parallel_workers", Integer.toString(cpus));
      out.put("max_parallel_maintenance_workers", Integer.toString(half));
    }
    out.put("jit", "off");
    if (server.majorVersion() >= 15) {
      out.put("wal_compression", "lz4");
    }
    if (server.majorVersion() >= 18) {
      out.put("io_method", "io_uring");
    }
    out.entrySet().removeIf(e -> !server.accepts(e.getKey(), e.getValue()));
    return out;
  }

  /** 3% of shared_buffers, at most 16 MB (from 14 MB up rounded to 16 MB), at least 32 kB. */
  static long walBuffersKb(long sharedBuffersKb) {
    long kb = sharedBuffersKb * 3 / 100;
    long max = 16 * KB_PER_MB;
    if (kb > 14 * KB_PER_MB) {
      kb = max;
    }
    return Math.max(kb, 32);
  }

  /** (RAM - shared_buffers) / ((connections + worker processes) x 3), scaled, at least 4 MB. */
  private long workMemKb(long ramKb, long sharedBuffersKb, int connections, int workerProcesses) {
    double base = (double) (ramKb - sharedBuffersKb) / ((connections + workerProcesses) * 3.0);
    double factor = databaseLargerThanRam ? 0.9 : 1.3;
    return Math.max((long) Math.floor(base * factor), 4 * KB_PER_MB);
  }

  private int effectiveIoConcurrency() {
    return switch (storage) {
      case HDD -> 2;
      case SSD -> 200;
      case NETWORK -> 300;
      case NVME -> 1000;
    };
  }
}
