package org.pgknob.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Whether a server can be reached now, by one new connection and {@code SELECT 1}: what tells a
 * server that stopped answering (a dropped link, a host down, a server stopped or in crash
 * recovery) from one that answered with an error of its own (a refused login, no free connection),
 * which waiting would not mend.
 */
public final class ServerProbe {
  /** How long a probe's query may take on a connection that opened. */
  private static final int NETWORK_TIMEOUT_MILLIS = 5000;

  private ServerProbe() {}

  /**
   * Why the server cannot be reached now, or empty when it answers, or answers with an error that
   * is not about reaching it. Takes at most the target's connect timeout plus 5 s.
   */
  public static Optional<String> unreachable(Target target) {
    try (Connection conn = target.connect("postgres")) {
      conn.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MILLIS);
      try (Statement st = conn.createStatement()) {
        st.execute("SELECT 1");
      }
      return Optional.empty();
    } catch (SQLException e) {
      return isUnreachable(e) ? Optional.of(ServerMessages.of(e)) : Optional.empty();
    }
  }

  /**
   * Seconds the server's postmaster has run, by the server's own clock (so a skewed clock on the
   * tuner's host does not matter), or empty when it cannot be read.
   */
  public static OptionalDouble uptimeSeconds(Target target) {
    try (Connection conn = target.connect("postgres");
        Statement st = conn.createStatement()) {
      conn.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MILLIS);
      try (ResultSet rs =
          st.executeQuery(
              "SELECT extract(epoch FROM now() - pg_catalog.pg_postmaster_start_time())")) {
        return rs.next() ? OptionalDouble.of(rs.getDouble(1)) : OptionalDouble.empty();
      }
    } catch (SQLException e) {
      return OptionalDouble.empty();
    }
  }

  /**
   * A connection exception (SQLSTATE class 08: refused, timed out, no route, reset) or a server
   * that cannot take connections now (57P: shutting down, starting, in recovery).
   */
  static boolean isUnreachable(SQLException e) {
    String state = e.getSQLState();
    if (state == null) {
      return e.getCause() instanceof java.io.IOException;
    }
    return state.startsWith("08") || state.startsWith("57P");
  }
}
