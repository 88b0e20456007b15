package org.pgknob.session;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;
import org.pgknob.server.SettingCatalog;

/** The PGTune-style configuration of a session's server, from its RAM, cores and storage. */
final class PgTuneSettings {
  /** Every setting PGTune may give, so a session records their defaults before any change. */
  static final List<String> NAMES =
      List.of(
          "max_connections",
          "shared_buffers",
          "effective_cache_size",
          "maintenance_work_mem",
          "checkpoint_completion_target",
          "wal_buffers",
          "default_statistics_target",
          "random_page_cost",
          "effective_io_concurrency",
          "work_mem",
          "huge_pages",
          "min_wal_size",
          "max_wal_size",
          "max_worker_processes",
          "max_parallel_workers_per_gather",
          "max_parallel_workers",
          "max_parallel_maintenance_workers",
          "jit",
          "wal_compression",
          "io_method");

  private PgTuneSettings() {}

  /**
   * The settings that differ from the server's as the session found them: a value PGTune gives that
   * the server runs already (checkpoint_completion_target 0.9 on PostgreSQL 14+) changes nothing,
   * so it is neither counted nor exported.
   */
  static Map<String, String> compute(SessionContext context) {
    PgTuneOptions given = context.inputs().pgtune();
    try (Connection conn = context.target().connect("postgres")) {
      SettingCatalog server = SettingCatalog.read(conn);
      int cpus =
          given.cpus() != null
              ? given.cpus()
              : context.facts().hostCores().orElse(Runtime.getRuntime().availableProcessors());
      StorageType storage =
          given.storage() != null
              ? given.storage()
              : StorageProbe.type(context.facts().local() ? context.facts().dataDirectory() : null);
      boolean larger = context.databaseBytes() > context.ram().bytes();
      Map<String, String> settings =
          new PgTuneConfig(context.ram().bytes(), cpus, storage, larger, given.connections())
              .settings(server);
      return ServerChanges.only(settings, context.serverSettings());
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot read the server's facts for the PGTune-style configuration: " + e.getMessage(),
          "check that the server is up");
    }
  }
}
