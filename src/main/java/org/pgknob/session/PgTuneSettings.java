package org.pgknob.session;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;
import org.pgknob.server.ServerFacts;
import org.pgknob.server.SettingCatalog;
import org.pgknob.space.PgSetting;

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
    try (Connection conn = context.target().connect("postgres")) {
      return compute(
          conn, context.inputs(), context.facts(), context.ram().bytes(), context.serverSettings());
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot read the server's facts for the PGTune-style configuration: " + e.getMessage(),
          "check that the server is up");
    }
  }

  /**
   * {@link #compute(SessionContext)} before the session's context exists, for a server whose
   * settings as found are {@code serverSettings} and whose RAM is {@code ramBytes}.
   */
  static Map<String, String> compute(
      Connection conn,
      SessionInputs inputs,
      ServerFacts facts,
      long ramBytes,
      Map<String, PgSetting> serverSettings)
      throws SQLException {
    PgTuneOptions given = inputs.pgtune();
    SettingCatalog server = SettingCatalog.read(conn);
    int cpus =
        given.cpus() != null
            ? given.cpus()
            : facts.hostCores().orElse(Runtime.getRuntime().availableProcessors());
    StorageType storage =
        given.storage() != null
            ? given.storage()
            : StorageProbe.type(facts.local() ? facts.dataDirectory() : null);
    boolean larger = inputs.workload().databaseBytes() > ramBytes;
    Map<String, String> settings =
        new PgTuneConfig(ramBytes, cpus, storage, larger, given.connections()).settings(server);
    return ServerChanges.only(settings, serverSettings);
  }
}
