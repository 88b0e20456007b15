package org.pgknob.server;

import java.util.Map;
import org.pgknob.PgknobException;

/**
 * A configuration the server would not take. The server is up with the previous settings when this
 * is thrown; a session records it as the outcome of the configuration it tried.
 */
public class SettingRejectedException extends PgknobException {
  /** At which step the configuration was refused. */
  public enum Reason {
    /** A name or value failed the check against pg_settings; nothing was changed. */
    INVALID,
    /** ALTER SYSTEM refused a value; what was changed before it has been put back. */
    SERVER_REFUSED,
    /** The server did not come back after the restart; the previous settings were put back. */
    DID_NOT_START,
    /** The server came back but does not show the value; the previous settings were put back. */
    DID_NOT_TAKE_EFFECT
  }

  private final Reason reason;
  private final Map<String, String> settings;
  private final String serverMessage;

  public SettingRejectedException(
      Reason reason, Map<String, String> settings, String cause, String serverMessage, String fix) {
    super(
        serverMessage == null || serverMessage.isEmpty() || cause.contains(serverMessage)
            ? cause
            : cause + ": " + serverMessage,
        fix);
    this.reason = reason;
    this.settings = Map.copyOf(settings);
    this.serverMessage = serverMessage == null ? "" : serverMessage;
  }

  public Reason reason() {
    return reason;
  }

  /** The configuration that was refused. */
  public Map<String, String> settings() {
    return settings;
  }

  /** The server's own words (its log's FATAL line, or the SQL error), or empty. */
  public String serverMessage() {
    return serverMessage;
  }
}
