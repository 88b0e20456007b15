package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.pgknob.server.Target;

/**
 * Connections of a workload driver with every wait bounded: a connect timeout, and a socket timeout
 * so a server that vanishes mid-call ends the call with an error instead of a hang.
 */
public final class DriverConnections {
  public static final int CONNECT_TIMEOUT_SECONDS = 15;

  private DriverConnections() {}

  /**
   * @param applicationName how the connection names itself in pg_stat_activity, so the guardrail
   *     stops only the workload's backends
   * @param extra further pgJDBC properties, e.g. preferQueryMode
   */
  public static Connection open(
      Target target,
      String database,
      int socketTimeoutSeconds,
      String applicationName,
      Properties extra)
      throws SQLException {
    Properties props = new Properties();
    props.putAll(target.credentials());
    props.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    props.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
    props.setProperty("loginTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    props.setProperty("tcpKeepAlive", "true");
    props.setProperty("ApplicationName", applicationName);
    props.putAll(extra);
    return DriverManager.getConnection(target.jdbcUrl(database), props);
  }
}
