package org.pgknob.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.pgknob.PgknobException;

/**
 * Changes a server's settings and puts them back, for either kind of target.
 *
 * <p>Every change follows the same steps: check names, values and privileges against the live
 * server (nothing changed yet); record each setting's original state in the restore file (fsynced)
 * before touching it; ALTER SYSTEM; reload; restart when a setting needs it; read the values back.
 * When the server refuses a value or does not come back, the previous settings are put back before
 * the error is thrown, so the server is always left up with settings that worked.
 *
 * <p>One lock guards every change and restore, so a restore from a shutdown hook waits for a change
 * in flight instead of racing it.
 *
 * <p>Its connections come from a {@link ControlPool}, made on first use; every reload and restart
 * it makes retires them (the next one starts after it), a restore closes the pool (pgknob is done
 * with the server; a later change makes a new one), and so does {@link #close()}. Only the checks
 * that need a fresh backend open one of their own: {@link ServerControl#answers} and the read-back
 * after a change.
 */
final class SettingsController {

  private final ServerControl server;
  private final ReentrantLock lock = new ReentrantLock();
  private Path restoreFilePath;
  private boolean loaded;
  private RestoreFile file; // null until the first change, or when the last one was restored
  private ControlPool connections; // null until the first borrow, and again after close()
  private boolean stopped; // set by a restore for good: the JVM is stopping, no change after it

  /**
   * Set when this process restored a file that says the server ran before pgknob's first change:
   * the changes it makes next continue that work (a session resumed after a kill -9 mid-restart,
   * which found the server stopped and started it), so their new file says so too, and closing
   * leaves the server running as the user had it.
   */
  private boolean ranBeforeRestoredChanges;

  SettingsController(ServerControl server, Path restoreFilePath) {
    this.server = server;
    this.restoreFilePath = restoreFilePath.toAbsolutePath();
  }

  Path restoreFile() {
    return restoreFilePath;
  }

  void useRestoreFile(Path path) {
    lock.lock();
    try {
      if (file != null && !file.isRestored()) {
        throw new IllegalStateException(
            "settings were changed already; choose the restore file before the first change");
      }
      restoreFilePath = path.toAbsolutePath();
      loaded = false;
      file = null;
      ranBeforeRestoredChanges = false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * True when the restore file says the server ran before pgknob's first change: closing must then
   * leave it running, even if this process found it stopped (a kill -9 mid-restart).
   */
  boolean leaveRunning() {
    lock.lock();
    try {
      ensureLoaded();
      return ranBeforeRestoredChanges || (file != null && file.leaveRunning());
    } catch (RuntimeException e) {
      return false; // another server's file: nothing said about this one
    } finally {
      lock.unlock();
    }
  }

  /** A pinned control connection from the pool; closing it gives it back. */
  private Connection connect() throws SQLException {
    ControlPool pool;
    synchronized (this) {
      if (connections == null) {
        connections = new ControlPool(server.describe(), server::connect, ControlPool.WAIT);
      }
      pool = connections;
    }
    return pool.connection();
  }

  /**
   * Retires the pool's connections after a reload or restart pgknob made: a connection that began
   * before it shows the old values of settings a session reads only at its start.
   */
  private synchronized void connectionsStale() {
    if (connections != null) {
      connections.evictAll();
    }
  }

  /** Ends every control connection at once; a later call opens a new pool. */
  synchronized void close() {
    if (connections != null) {
      connections.close();
      connections = null;
    }
  }

  Map<String, String> applied() {
    lock.lock();
    try {
      ensureLoaded();
      return file == null ? Map.of() : Map.copyOf(file.applied());
    } finally {
      lock.unlock();
    }
  }

  List<ServerSetting> settings() {
    try (Connection conn = connect()) {
      return PgSettings.read(conn);
    } catch (SQLException e) {
      throw lost(e);
    }
  }

  ApplyReport configure(Map<String, String> requested) {
    long startNanos = System.nanoTime();
    lock.lock();
    try {
      ensureLoaded();
      if (stopped) {
        throw new PgknobException(
            "pgknob is stopping: the original settings of "
                + server.describe()
                + " are back, and no other change is made",
            "nothing to do; run pgknob again to go on");
      }
      Map<String, String> previous = file == null ? Map.of() : file.applied();
      SettingChanges planned;
      Optional<String> lastGoodAutoConf;
      try (Connection conn = connect()) {
        Map<String, ServerSetting> now = PgSettings.byName(conn);
        planned =
            SettingChanges.of(
                now, requested, touchedNames(), n -> file.snapshot().original(n).orElseThrow());
        server.checkPrivileges(conn, planned.touched());
        if (planned.restart() && !server.canRestart()) {
          List<String> needing = planned.needingRestart();
          throw new SettingRejectedException(
              SettingRejectedException.Reason.INVALID,
              planned.wanted(),
              String.join(", ", needing)
                  + " takes a server restart and no restart command was given",
              "",
              "add --restart-command (e.g. 'sudo systemctl restart postgresql') or leave "
                  + String.join(", ", needing)
                  + " out; nothing was changed");
        }
        recordOriginals(conn, now, planned.wanted());
        lastGoodAutoConf = server.readAutoConf(conn);
        String failing = null;
        try (Statement st = conn.createStatement()) {
          for (String name : planned.touched()) {
            failing = name;
            st.execute(statementFor(name, planned.wanted()));
          }
          failing = null;
          st.execute("SELECT pg_catalog.pg_reload_conf()");
          connectionsStale();
        } catch (SQLException e) {
          String serverMessage = ServerMessages.of(e);
          recover(previous, planned.touched(), lastGoodAutoConf, serverMessage);
          throw new SettingRejectedException(
              SettingRejectedException.Reason.SERVER_REFUSED,
              planned.wanted(),
              "the server refused "
                  + (failing == null
                      ? "the configuration"
                      : failing + " = " + planned.wanted().getOrDefault(failing, "(original)")),
              serverMessage,
              "nothing was changed: the previous settings are back");
        }
      } catch (SQLException e) {
        throw lost(e);
      }
      boolean restarted = false;
      if (planned.restart()) {
        try {
          server.restart();
          connectionsStale();
          restarted = true;
        } catch (ServerStartException e) {
          String reason = e.serverMessage().isEmpty() ? e.getMessage() : e.serverMessage();
          recover(previous, planned.touched(), lastGoodAutoConf, reason);
          throw new SettingRejectedException(
              SettingRejectedException.Reason.DID_NOT_START,
              planned.wanted(),
              "PostgreSQL did not come back after a restart with "
                  + describe(planned.wanted())
                  + ": "
                  + e.getMessage(),
              reason,
              "pgknob put back the previous settings and the server is up again");
        }
      }
      List<String> mismatches = SettingsReadBack.await(server, planned.expected());
      if (!mismatches.isEmpty()) {
        String reason = String.join("; ", mismatches);
        recover(previous, planned.touched(), lastGoodAutoConf, reason);
        throw new SettingRejectedException(
            SettingRejectedException.Reason.DID_NOT_TAKE_EFFECT,
            planned.wanted(),
            "the server does not show " + describe(planned.wanted()) + " after the change",
            reason,
            "pgknob put back the previous settings");
      }
      file = file.withState(RestoreFile.APPLIED, file.snapshot(), planned.wanted(), Map.of());
      file.write(restoreFilePath);
      return new ApplyReport(planned.changes(), true, restarted, secondsSince(startNanos));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Brings every touched setting back to its original state and marks the restore file. Whatever
   * the outcome, the control connections are closed after: a restore is pgknob's last word with the
   * server (at the end of a session, in the Ctrl-C hook, in {@code pgknob restore}), and a later
   * change opens new ones.
   *
   * @param forGood refuse every later {@link #configure} (the JVM is stopping: {@link Restorer})
   */
  ApplyReport restoreOriginals(boolean forGood) {
    long startNanos = System.nanoTime();
    lock.lock();
    try {
      stopped |= forGood;
      ensureLoaded();
      if (file == null || file.isRestored()) {
        return ApplyReport.nothing();
      }
      ranBeforeRestoredChanges |= file.leaveRunning();
      if (!server.answers(Duration.ofSeconds(5))) {
        String original = file.snapshot().originalAutoConf();
        if (original == null || !server.startWithAutoConf(original)) {
          throw new PgknobException(
              server.describe() + " does not answer, so its settings cannot be restored now",
              "start the server, then run: pgknob restore " + restoreFilePath);
        }
        connectionsStale(); // it was down: whatever the pool held ended with it
      }
      Map<String, String> expected = new LinkedHashMap<>();
      Map<String, String> stuck = new LinkedHashMap<>();
      List<SettingChange> changes = new ArrayList<>();
      boolean restart = false;
      try (Connection conn = connect();
          Statement st = conn.createStatement()) {
        Map<String, ServerSetting> now = PgSettings.byName(conn);
        for (OriginalSetting original : file.snapshot().originals()) {
          ServerSetting s = now.get(original.name());
          if (s == null) {
            continue; // e.g. an extension's setting whose library is no longer loaded
          }
          try {
            st.execute(original.restoreStatement());
          } catch (SQLException e) {
            // One setting the server will not take back must not keep the others from coming
            // back. One already at its original value needs nothing (e.g. data_directory, which
            // an older pgknob recorded before refusing it, and ALTER SYSTEM never accepts).
            if (!SettingValue.sameValue(s, original.setting(), s.setting()) || s.pendingRestart()) {
              stuck.put(original.name(), ServerMessages.of(e));
            }
            continue;
          }
          if (original.verifiable()) {
            expected.put(original.name(), original.setting());
          }
          if (!SettingValue.sameValue(s, original.setting(), s.setting())) {
            changes.add(
                new SettingChange(
                    original.name(), s.display(), original.display(), s.needsRestart()));
            restart |= s.needsRestart();
          }
        }
        st.execute("SELECT pg_catalog.pg_reload_conf()");
        connectionsStale();
      } catch (SQLException e) {
        throw new PgknobException(
            "restoring the settings of " + server.describe() + " failed: " + ServerMessages.of(e),
            "fix the cause, then run: pgknob restore " + restoreFilePath,
            e);
      }
      if (restart) {
        server.restart();
        connectionsStale();
      }
      List<String> mismatches = SettingsReadBack.await(server, expected);
      if (!restart && server.canRestart() && waitsForRestartSinceOriginals()) {
        // A change killed between its ALTER SYSTEM and its restart: the server still runs its
        // original value, but a setting whose default is worked out at startup (wal_buffers' -1,
        // 640 pages here) reads as waiting for a restart once reset. One restart gives the server
        // its own state back, the flag included.
        server.restart();
        connectionsStale();
        restart = true;
        mismatches = SettingsReadBack.await(server, expected);
      }
      if (!mismatches.isEmpty()) {
        throw new PgknobException(
            "after restoring, " + String.join("; ", mismatches),
            "the restore file " + restoreFilePath + " is kept; run pgknob restore again");
      }
      if (!stuck.isEmpty()) {
        // Kept unrestored, so a later restore retries exactly these (the others are back and
        // their ALTER SYSTEM is repeated harmlessly); apply and tune leave them alone meanwhile.
        file = file.withState(RestoreFile.APPLIED, file.snapshot(), Map.of(), Map.of());
        file = file.withStuck(stuck);
        file.write(restoreFilePath);
        throw new PgknobException(
            "put back "
                + (file.snapshot().originals().size() - stuck.size())
                + " of "
                + file.snapshot().originals().size()
                + " settings of "
                + server.describe()
                + ", but not "
                + stuck.entrySet().stream()
                    .map(e -> e.getKey() + " (" + e.getValue() + ")")
                    .collect(Collectors.joining(", ")),
            "fix that, or as a superuser run "
                + stuck.keySet().stream()
                    .map(n -> file.snapshot().original(n).orElseThrow().restoreStatement())
                    .collect(Collectors.joining("; "))
                + "; SELECT pg_reload_conf(); then run pgknob restore "
                + restoreFilePath
                + " to finish");
      }
      giveBackOriginalAutoConf();
      RestoreFile restored =
          file.withState(RestoreFile.RESTORED, file.snapshot(), Map.of(), Map.of())
              .withStuck(Map.of());
      try {
        restored.write(restoreFilePath);
      } catch (PgknobException e) {
        throw new RestoreNotRecordedException(server.describe(), restoreFilePath, e);
      }
      file = restored;
      return new ApplyReport(changes, true, restart, secondsSince(startNanos));
    } finally {
      close();
      lock.unlock();
    }
  }

  /**
   * After a verified restore: ALTER SYSTEM has written the original settings back, but in its own
   * order and quoting. When the file now holds exactly the settings of the original, write the
   * original bytes back, so the user's file (order, comments) is as they left it. Anything else in
   * it (someone else's ALTER SYSTEM since) leaves it alone.
   */
  private void giveBackOriginalAutoConf() {
    String original = file.snapshot().originalAutoConf();
    if (original == null) {
      return;
    }
    try (Connection conn = connect()) {
      Optional<String> now = server.readAutoConf(conn);
      if (now.isPresent()
          && !now.get().equals(original)
          && AutoConf.parse(now.get()).equals(AutoConf.parse(original))) {
        server.rewriteAutoConf(original);
      }
    } catch (SQLException | RuntimeException e) {
      // the settings are back already; only the file's order and comments differ
    }
  }

  private void ensureLoaded() {
    if (loaded) {
      return;
    }
    loaded = true;
    if (!Files.exists(restoreFilePath)) {
      return;
    }
    RestoreFile existing = RestoreFile.read(restoreFilePath);
    if (existing.isRestored()) {
      return;
    }
    if (!existing.identity().sameServer(server.identity())) {
      loaded = false;
      throw new PgknobException(
          "the restore file "
              + restoreFilePath
              + " holds unrestored settings of "
              + existing.identity().describe()
              + ", not of "
              + server.describe(),
          "run pgknob restore " + restoreFilePath + " first, or use another run folder");
    }
    file = existing;
  }

  /**
   * True when a recorded setting waits for a restart now (pending_restart, read in a new backend
   * after the restore's reload) though it did not when pgknob first recorded it.
   */
  private boolean waitsForRestartSinceOriginals() {
    try (Connection conn = server.connect()) {
      Map<String, ServerSetting> now = PgSettings.byName(conn);
      for (OriginalSetting original : file.snapshot().originals()) {
        ServerSetting s = now.get(original.name());
        if (s != null && s.pendingRestart() && !original.pendingRestart()) {
          return true;
        }
      }
      return false;
    } catch (SQLException e) {
      return false; // the read-back above has already checked what it can
    }
  }

  /** Every setting pgknob changed or began to change since the originals were recorded. */
  private Set<String> touchedNames() {
    Set<String> names = new LinkedHashSet<>();
    if (file != null && !file.isRestored()) {
      file.snapshot().originals().forEach(o -> names.add(o.name()));
      names.addAll(file.applied().keySet());
      names.addAll(file.pending().keySet());
      // A setting a restore could not put back waits for the user; it must not block changes.
      names.removeAll(file.stuck().keySet());
    }
    return names;
  }

  /** Records the original state of settings not recorded yet, then writes the restore file. */
  private void recordOriginals(
      Connection conn, Map<String, ServerSetting> now, Map<String, String> wanted) {
    Optional<String> autoConf = server.readAutoConf(conn);
    Map<String, String> autoConfValues = null;
    String how;
    if (autoConf.isPresent()) {
      autoConfValues = AutoConf.parse(autoConf.get());
      how = AutoConf.FILE_NAME;
    } else {
      autoConfValues = autoConfFromFileSettings(conn);
      how = autoConfValues == null ? "pg_settings.sourcefile" : "pg_file_settings";
    }
    boolean fresh = file == null || file.isRestored();
    SettingsSnapshot snapshot =
        fresh ? new SettingsSnapshot(autoConf.orElse(null), how, List.of()) : file.snapshot();
    List<OriginalSetting> added = new ArrayList<>();
    for (String name : wanted.keySet()) {
      if (snapshot.original(name).isPresent()) {
        continue; // a second change keeps the first original
      }
      ServerSetting s = now.get(name);
      boolean inAutoConf;
      String autoConfValue;
      if (autoConfValues != null) {
        inAutoConf = autoConfValues.containsKey(name);
        autoConfValue = autoConfValues.get(name);
      } else {
        inAutoConf =
            "configuration file".equals(s.source())
                && s.sourcefile() != null
                && s.sourcefile().endsWith(AutoConf.FILE_NAME);
        autoConfValue = inAutoConf ? s.setting() : null; // base units: the same value
      }
      added.add(
          new OriginalSetting(
              name,
              s.setting(),
              s.unit(),
              s.vartype(),
              s.context(),
              s.source(),
              inAutoConf,
              autoConfValue,
              s.pendingRestart()));
    }
    snapshot = snapshot.with(added);
    file =
        fresh
            ? new RestoreFile(
                server.identity(),
                RestoreFile.CHANGING,
                snapshot,
                Map.of(),
                wanted,
                java.time.Instant.now(),
                server.runningWhenOpened() || ranBeforeRestoredChanges,
                Map.of())
            : file.withState(RestoreFile.CHANGING, snapshot, file.applied(), wanted);
    file.write(restoreFilePath);
    if (fresh) {
      UnrestoredFiles.register(server.identity(), restoreFilePath);
    }
  }

  /**
   * postgresql.auto.conf's settings from pg_file_settings, or null when the role may not read it.
   */
  private static Map<String, String> autoConfFromFileSettings(Connection conn) {
    Map<String, String> values = new LinkedHashMap<>();
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT name, setting FROM pg_catalog.pg_file_settings"
                    + " WHERE sourcefile LIKE '%/"
                    + AutoConf.FILE_NAME
                    + "' AND error IS NULL ORDER BY seqno")) {
      while (rs.next()) {
        values.put(rs.getString(1), rs.getString(2));
      }
      return values;
    } catch (SQLException e) {
      return null;
    }
  }

  /**
   * The ALTER SYSTEM statement that gives {@code name} its value in the configuration asked for.
   */
  private String statementFor(String name, Map<String, String> settings) {
    if (settings.containsKey(name)) {
      return SqlQuoting.alterSystemSet(name, settings.get(name));
    }
    return file.snapshot()
        .original(name)
        .map(OriginalSetting::restoreStatement)
        .orElse(SqlQuoting.alterSystemReset(name));
  }

  /**
   * Puts back the settings of the last completed change. Uses ALTER SYSTEM when the server answers;
   * when it is down, writes the last postgresql.auto.conf that worked and starts it.
   */
  private void recover(
      Map<String, String> previous,
      Set<String> touched,
      Optional<String> lastGoodAutoConf,
      String failure) {
    try {
      if (server.answers(Duration.ofSeconds(3))) {
        boolean restart = false;
        try (Connection conn = connect();
            Statement st = conn.createStatement()) {
          Map<String, ServerSetting> now = PgSettings.byName(conn);
          for (String name : touched) {
            st.execute(statementFor(name, previous));
            ServerSetting s = now.get(name);
            if (s != null && s.needsRestart()) {
              String was =
                  previous.containsKey(name)
                      ? SettingValue.canonical(s, previous.get(name))
                      : file.snapshot()
                          .original(name)
                          .map(OriginalSetting::setting)
                          .orElse(s.setting());
              restart |= !SettingValue.sameValue(s, was, s.setting());
            }
          }
          st.execute("SELECT pg_catalog.pg_reload_conf()");
        }
        if (restart) {
          server.restart();
        }
      } else if (lastGoodAutoConf.isEmpty() || !server.startWithAutoConf(lastGoodAutoConf.get())) {
        throw new PgknobException(
            server.describe() + " is down and pgknob cannot reach its postgresql.auto.conf",
            "remove the lines for "
                + String.join(", ", touched)
                + " from postgresql.auto.conf in its data folder and start it, then run: pgknob restore "
                + restoreFilePath);
      }
      connectionsStale(); // after its reload, a restart, or a start from the last good file
      file = file.withState(RestoreFile.APPLIED, file.snapshot(), previous, Map.of());
      file.write(restoreFilePath);
    } catch (SQLException | RuntimeException e) {
      String why = e instanceof SQLException sql ? ServerMessages.of(sql) : e.getMessage();
      throw new PgknobException(
          "a change failed ("
              + failure
              + ") and putting back the previous settings failed too: "
              + why,
          e instanceof PgknobException pe && !pe.fix().isEmpty()
              ? pe.fix()
              : "run: pgknob restore " + restoreFilePath,
          e);
    }
  }

  private PgknobException lost(SQLException e) {
    return new PgknobException(
        "lost the connection to " + server.describe() + ": " + ServerMessages.of(e),
        "check the server; if pgknob changed settings, run: pgknob restore " + restoreFilePath,
        e);
  }

  private static String describe(Map<String, String> settings) {
    return settings.entrySet().stream()
        .map(e -> e.getKey() + " = " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static double secondsSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
