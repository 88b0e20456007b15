package org.pgknob.server;

import org.pgknob.PgknobException;

/** The server did not start (or restart); carries the server's own message from its log. */
public class ServerStartException extends PgknobException {
  private final String serverMessage;

  public ServerStartException(String cause, String serverMessage, String fix) {
    super(cause + (serverMessage.isEmpty() ? "" : ": " + serverMessage), fix);
    this.serverMessage = serverMessage;
  }

  /** The FATAL/PANIC lines the server wrote while failing to start, or empty. */
  public String serverMessage() {
    return serverMessage;
  }
}
