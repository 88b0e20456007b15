package org.pgknob.server;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * A PostgreSQL server pgknob reconfigures: a {@link ManagedCluster} it runs itself, or an existing
 * {@link RemoteServer} reached by JDBC.
 *
 * <p>Every change is recorded in a restore file before it is made ({@link #restoreFile()}; by
 * default one per server under PGKNOB_HOME/restore, a session chooses runs/ID/restore.json with
 * {@link #useRestoreFile}). A session's life: {@link #configure} for each trial, {@link
 * #restoreOriginals()} at the end (also from a shutdown hook: see {@link Restorer}), {@link
 * #close()}.
 */
public interface Target extends AutoCloseable {
  /** Which server this is: the key of its restore and lock files. */
  TargetIdentity identity();

  /** A description for people and logs: host, port, database; never a password. */
  String describe();

  /** JDBC URL of {@code database} on this server. */
  String jdbcUrl(String database);

  /** User and password for JDBC; never log or persist these properties. */
  Properties credentials();

  /** A new connection to {@code database}; the caller closes it. */
  Connection connect(String database) throws SQLException;

  /** Version, data folder, and (when the server is on this host) RAM, cores, cgroup limit, pid. */
  ServerFacts facts();

  /**
   * The server's data and WAL disks as read now: from this host when it sees the data directory
   * {@code facts} name, else empty ({@link RemoteServer} with an agent reads them on the database
   * host).
   */
  default Optional<DiskReading> disks(ServerFacts facts) {
    return ServerDisks.of(facts).map(ServerDisks::reading);
  }

  /**
   * What a session should say once, at its start, about what guards the server's memory when the
   * server's own figures cannot be read (a server elsewhere without an agent); else empty.
   */
  default Optional<String> memoryGuardNotice() {
    return Optional.empty();
  }

  /**
   * A sampler of the server's process tree for one trial (not started): /proc of the current
   * postmaster when the server runs on this host, the agent's figures for a server elsewhere, or
   * empty when neither is available.
   */
  default Optional<ProcessSampler> newSampler() {
    OptionalLong pid = facts().postmasterPid();
    return pid.isEmpty() ? Optional.empty() : Optional.of(new ProcessSampler(pid.getAsLong()));
  }

  /** Every row of pg_settings, by name. */
  List<ServerSetting> settings();

  /**
   * Makes the server run with its original settings plus exactly {@code settings}: a setting set by
   * an earlier call and absent now goes back to its original value. Names and values are checked
   * against pg_settings first; the original of each setting is recorded in the restore file before
   * it changes; the configuration is reloaded, and the server restarted when a changed setting
   * needs it; the values are read back.
   *
   * @param settings setting name to value as PostgreSQL takes it (e.g. {@code 256MB}, {@code on})
   * @throws SettingRejectedException when a value is invalid (nothing changed), the server refuses
   *     it, or does not come back after the restart; the previous settings are back and the server
   *     is up when it is thrown
   * @throws org.pgknob.PgknobException for a missing privilege (nothing changed) or a lost server
   */
  ApplyReport configure(Map<String, String> settings);

  /** The settings pgknob has applied on top of the originals (empty when none, or restored). */
  Map<String, String> appliedSettings();

  /**
   * Brings every setting pgknob touched back to its original value, reloading and restarting as
   * needed, verifies them, and marks the restore file as restored. Idempotent; waits for a change
   * in flight.
   */
  ApplyReport restoreOriginals();

  /**
   * As {@link #restoreOriginals()}, for a JVM that is stopping ({@link Restorer}'s hook): every
   * later {@link #configure} is refused. Why: the session's own thread runs on while the hooks do,
   * and a SIGTERM in a noise-bench session restored the server, after which that thread ran two
   * more trials and left the next one's settings on the server when the JVM halted.
   */
  ApplyReport restoreOriginalsForGood();

  /** Restarts the server and waits until it answers. */
  void restart();

  /** The file recording the original settings. */
  Path restoreFile();

  /**
   * Records originals in {@code file} instead of the default. Call before the first change; an
   * unrestored file of the same server is taken over (its originals are kept).
   */
  void useRestoreFile(Path file);

  /**
   * Leaves the server running or stopped as pgknob found it (a managed cluster pgknob started is
   * stopped). Does not restore settings: call {@link #restoreOriginals()} first for that.
   */
  @Override
  void close();
}
