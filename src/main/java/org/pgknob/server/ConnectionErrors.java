package org.pgknob.server;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Optional;
import org.pgknob.PgknobException;

/** Turns a failed connection into one line that names the cause and what to do. */
final class ConnectionErrors {
  private ConnectionErrors() {}

  static PgknobException explain(
      SQLException e, RemoteAddress address, String user, boolean hadPassword) {
    String at = address.hostPort();
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (state.equals("28P01")) {
      return new PgknobException(
          "wrong password for user " + user + " at " + at + " (password authentication failed)",
          "check PGPASSWORD, ~/.pgpass or the file given to --password-file",
          e);
    }
    if (state.equals("28000")) {
      return new PgknobException(
          "the server at " + at + " refused user " + user + ": " + ServerMessages.of(e),
          "check the user name and the server's pg_hba.conf",
          e);
    }
    if (state.equals("3D000")) {
      return new PgknobException(
          "database " + address.database() + " does not exist at " + at,
          "name an existing database in the URL, e.g. jdbc:postgresql://" + at + "/postgres",
          e);
    }
    if (!hadPassword && String.valueOf(e.getMessage()).contains("no password was provided")) {
      return new PgknobException(
          "the server at " + at + " asks user " + user + " for a password and pgknob found none",
          "set PGPASSWORD, add a line to ~/.pgpass, or use --password-file",
          e);
    }
    if (root instanceof UnknownHostException) {
      return new PgknobException(
          "unknown host " + address.host() + " (in " + at + ")",
          "check the host name in --target",
          e);
    }
    if (root instanceof ConnectException || root instanceof NoRouteToHostException) {
      return new PgknobException(
          "cannot connect to "
              + at
              + ": "
              + (root instanceof ConnectException ? "connection refused" : "no route to host"),
          "check the host and port, and that PostgreSQL listens there (listen_addresses, firewall)",
          e);
    }
    if (!state.startsWith("28") && !state.equals("3D000")) {
      Optional<String> foreign = ProtocolProbe.foreignAnswer(address.host(), address.port());
      if (foreign.isPresent()) {
        return new PgknobException(
            "the server at " + at + " is not PostgreSQL (it answered '" + foreign.get() + "')",
            "check the port in --target; PostgreSQL listens on 5432 unless configured otherwise",
            e);
      }
    }
    if (root instanceof SocketTimeoutException) {
      return new PgknobException(
          "no answer from " + at + " within " + RemoteServer.CONNECT_TIMEOUT_SECONDS + " s",
          "check the host, port and firewall",
          e);
    }
    return new PgknobException(
        "cannot connect to " + at + " as " + user + ": " + ServerMessages.of(e),
        "check --target, --user and the server's log",
        e);
  }
}
