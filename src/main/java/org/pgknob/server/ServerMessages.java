package org.pgknob.server;

import java.sql.SQLException;
import org.postgresql.util.PSQLException;

/** The one line of a failed statement or connection that pgknob's messages quote. */
final class ServerMessages {
  private ServerMessages() {}

  /** The server's one-line message of an SQL error, without the driver's extra lines. */
  static String of(SQLException e) {
    if (e instanceof PSQLException pe && pe.getServerErrorMessage() != null) {
      String message = pe.getServerErrorMessage().getMessage();
      String detail = pe.getServerErrorMessage().getDetail();
      return detail == null ? message : message + " (" + detail + ")";
    }
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line + ioCause(e, line);
  }

  /**
   * " (Read timed out)": what the network said under a driver's message that names a step and not
   * its cause ("The connection attempt failed.", or "An error occurred while setting up the SSL
   * connection.", which a link that dropped mid-session gave and which sends a DBA to the server's
   * SSL settings). Empty when there is no such cause or the message holds it already.
   */
  private static String ioCause(Throwable e, String line) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root == e || !(root instanceof java.io.IOException)) {
      return "";
    }
    String cause =
        root instanceof java.io.EOFException
            ? "the other end closed the connection"
            : root.getMessage() == null || root.getMessage().isBlank()
                ? root.getClass().getSimpleName()
                : root.getMessage();
    return line.contains(cause) ? "" : " (" + cause + ")";
  }
}
