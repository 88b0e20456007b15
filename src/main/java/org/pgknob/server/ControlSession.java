package org.pgknob.server;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The connection pgknob changes, reloads, verifies and restores settings through. A trial or {@code
 * apply} may set any user-level setting server-wide, and some of them would disable pgknob's own
 * rollback (a {@code statement_timeout} of 1 ms cancels the ALTER SYSTEM that undoes it; {@code
 * default_transaction_read_only}, a hostile {@code search_path}, a {@code role} set for the user).
 * So the control session pins them for itself at connect, whatever the server's values are:
 *
 * <ul>
 *   <li>{@code idle_session_timeout=0} and {@code transaction_timeout=0} as startup options: a tiny
 *       value would end the session before or during its first statement;
 *   <li>the rest with {@code set_config} right after connect (retried: under {@code
 *       statement_timeout=1ms} even that statement may be cancelled), then {@code SET SESSION
 *       AUTHORIZATION DEFAULT} and {@code RESET ROLE}.
 * </ul>
 *
 * <p>A setting pinned with SET shows source {@code session} in pg_settings, and its {@code
 * reset_val} is still the server's value; {@link PgSettings} reads that one for pinned names, so
 * originals are recorded and verified as every other session sees them.
 *
 * <p>{@link ControlPool} makes every pooled control connection with {@link #open}, so a pooled one
 * carries the same startup options and pins.
 */
final class ControlSession {
  /**
   * Pinned before the session first waits for a command or runs a statement: a tiny value of either
   * ends the whole session (FATAL), not just a statement, so a retry could not help.
   */
  static final Map<String, String> STARTUP =
      Map.of("idle_session_timeout", "0", "transaction_timeout", "0");

  /** Pinned right after connect; a name the server does not know (older versions) is skipped. */
  static final Map<String, String> PINNED = new LinkedHashMap<>();

  static {
    PINNED.put("statement_timeout", "0");
    PINNED.put("lock_timeout", "0");
    PINNED.put("idle_in_transaction_session_timeout", "0");
    PINNED.put("default_transaction_read_only", "off");
    PINNED.put("search_path", "pg_catalog");
    PINNED.put("exit_on_error", "off"); // an error must not end the session mid-restore
    PINNED.put("standard_conforming_strings", "on"); // plain literals in pgknob.s queries
  }

  private static final Set<String> PINNED_NAMES =
      Set.copyOf(
          java.util.stream.Stream.concat(PINNED.keySet().stream(), STARTUP.keySet().stream())
              .toList());
  private static final int PIN_ATTEMPTS = 20;

  private ControlSession() {}

  /**
   * Every name whose pg_settings row on a control session shows pgknob's value, not the server's.
   */
  static Set<String> pinnedNames() {
    return PINNED_NAMES;
  }

  /** Opens a control session: {@code props} plus the startup options, then the pins. */
  static Connection open(String url, Properties props) throws SQLException {
    Connection conn;
    try {
      conn = DriverManager.getConnection(url, withOptions(props, STARTUP));
    } catch (SQLException e) {
      if (!"42704".equals(e.getSQLState())) {
        throw e;
      }
      // Before PostgreSQL 17 there is no transaction_timeout, and an unknown startup option
      // refuses the connection: pin what this server knows.
      Map<String, String> known = new LinkedHashMap<>(STARTUP);
      known.remove("transaction_timeout");
      conn = DriverManager.getConnection(url, withOptions(props, known));
    }
    try {
      pin(conn);
      return conn;
    } catch (SQLException | RuntimeException e) {
      conn.close();
      throw e;
    }
  }

  private static Properties withOptions(Properties props, Map<String, String> startup) {
    Properties with = new Properties();
    with.putAll(props);
    // The driver then sends extra_float_digits and application_name in the startup packet instead
    // of running SET queries before the pins: under a server-wide statement_timeout of 1ms those
    // queries could be cancelled, and no connection (no restore) would open.
    with.putIfAbsent("assumeMinServerVersion", "10");
    StringBuilder options = new StringBuilder();
    startup.forEach(
        (name, value) ->
            options
                .append(options.length() == 0 ? "" : " ")
                .append("-c ")
                .append(name + "=" + value));
    with.setProperty("options", options.toString());
    return with;
  }

  private static void pin(Connection conn) throws SQLException {
    StringBuilder rows = new StringBuilder();
    for (Map.Entry<String, String> e : PINNED.entrySet()) {
      rows.append(rows.length() == 0 ? "" : ", ")
          .append('(')
          .append(SqlQuoting.literal(e.getKey()))
          .append(", ")
          .append(SqlQuoting.literal(e.getValue()))
          .append(')');
    }
    // Everything schema-qualified, operators too: the search_path is not pinned yet.
    String sql =
        "SELECT pg_catalog.set_config(p.name, p.value, false) FROM (VALUES "
            + rows
            + ") AS p(name, value) WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_settings s"
            + " WHERE s.name OPERATOR(pg_catalog.=) p.name)";
    SQLException last = null;
    for (int attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
      try (Statement st = conn.createStatement()) {
        // Alone first: it runs in microseconds, while the next one reads pg_settings, which may
        // take longer than the server's statement_timeout.
        st.execute("SET statement_timeout = 0");
        st.execute(sql);
        // A role set for pgknob's user (ALTER ROLE ... SET role) is also what RESET ROLE brings
        // back, so NONE, not RESET.
        st.execute("SET SESSION AUTHORIZATION DEFAULT");
        st.execute("SET ROLE NONE");
        return;
      } catch (SQLException e) {
        last = e; // e.g. cancelled by the server's statement_timeout before it took effect
      }
    }
    throw last;
  }
}
