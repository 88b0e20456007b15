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
    return newline < 0 ? message : message.substring(0, newline);
  }
}
