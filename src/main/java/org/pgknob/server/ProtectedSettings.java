package org.pgknob.server;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Settings pgknob never changes, whatever the user or a search space asks, each with the reason.
 * They are not performance knobs, and a wrong value can lose the server in a way pgknob's rollback
 * cannot undo: the server moves away from where pgknob reaches it, refuses to start from a file it
 * cannot find, or runs code or commands pgknob knows nothing of. They are refused before anything
 * is recorded, so a refused {@code apply} leaves no restore file behind that a later restore would
 * trip over.
 *
 * <p>One value is refused too: a transaction_timeout under 10 s ({@link #valueReason}).
 *
 * <p>Left changeable on purpose: {@code log_*} (a wrong log folder stops a start, which the
 * rollback handles like any unstartable value; nothing is lost) and every memory, WAL, planner and
 * I/O setting (what tuning is for).
 */
final class ProtectedSettings {
  private static final String WHERE =
      "it says where the server finds its data or configuration; a wrong path stops it from"
          + " starting, and PostgreSQL cannot change it back by ALTER SYSTEM";
  private static final String REACH =
      "it is how pgknob and every client reach the server; a new value would lose the server";
  private static final String CODE =
      "it loads code into the server (a bad library stops every new connection or the start);"
          + " not a tuning knob";
  private static final String COMMAND =
      "it runs a shell command as the server's user; not a tuning knob";
  private static final String SSL =
      "it governs encrypted connections and their key files; a wrong value locks clients out or"
          + " stops the server from starting; not a tuning knob";

  private static final Map<String, String> REASONS = new LinkedHashMap<>();

  static {
    for (String name : new String[] {"data_directory", "config_file", "hba_file", "ident_file"}) {
      REASONS.put(name, WHERE);
    }
    REASONS.put(
        "external_pid_file",
        "it makes the server write a file outside its data folder; a wrong path stops it from"
            + " starting; not a tuning knob");
    for (String name :
        new String[] {
          "port",
          "listen_addresses",
          "unix_socket_directories",
          "unix_socket_group",
          "unix_socket_permissions"
        }) {
      REASONS.put(name, REACH);
    }
    for (String name :
        new String[] {
          "shared_preload_libraries",
          "session_preload_libraries",
          "local_preload_libraries",
          "dynamic_library_path"
        }) {
      REASONS.put(name, CODE);
    }
    for (String name :
        new String[] {
          "archive_command",
          "archive_library",
          "restore_command",
          "archive_cleanup_command",
          "recovery_end_command"
        }) {
      REASONS.put(name, COMMAND);
    }
  }

  private ProtectedSettings() {}

  /** Why pgknob refuses to change {@code name}, or empty when it may. Names ignore case. */
  static Optional<String> reason(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("ssl") || lower.startsWith("ssl_")) {
      return Optional.of(SSL);
    }
    return Optional.ofNullable(REASONS.get(lower));
  }

  /** The least non-zero transaction_timeout pgknob sets, in milliseconds. */
  static final long MIN_TRANSACTION_TIMEOUT_MS = 10_000;

  /**
   * Why pgknob refuses this value of {@code s} ({@code canonical}: in base units), or empty. A
   * transaction_timeout of a few milliseconds ends every new connection while it starts, before any
   * option or SET can lift it (the server's startup transaction runs under it), pgknob's control
   * session included: then nothing could put it back by SQL.
   */
  static Optional<String> valueReason(ServerSetting s, String canonical) {
    if (s.name().equals("transaction_timeout")) {
      long ms = Long.parseLong(canonical);
      if (ms > 0 && ms < MIN_TRANSACTION_TIMEOUT_MS) {
        return Optional.of(
            "transaction_timeout must be 0 (off) or at least 10s for pgknob: a smaller value can"
                + " end every new connection while it starts, pgknob's own included, and then"
                + " nothing could put it back");
      }
    }
    return Optional.empty();
  }
}
