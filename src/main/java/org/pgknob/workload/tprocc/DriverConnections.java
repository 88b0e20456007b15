package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.pgknob.target.Target;

/**
 * Connections of the driver with every wait bounded: a connect timeout, and a socket timeout so a
 * server that vanishes mid-call ends the call with an error instead of a hang.
 */
final class DriverConnections {
  static final int CONNECT_TIMEOUT_SECONDS = 15;

  private DriverConnections() {}

  static Connection open(Target target, String database, int socketTimeoutSeconds)
      throws SQLException {
    Properties props = new Properties();
    props.putAll(target.credentials());
    props.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    props.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
    props.setProperty("loginTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    props.setProperty("tcpKeepAlive", "true");
    props.setProperty("ApplicationName", "pgknob tprocc");
    return DriverManager.getConnection(target.jdbcUrl(database), props);
  }
}
