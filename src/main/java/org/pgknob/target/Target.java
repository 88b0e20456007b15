package org.pgknob.target;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A PostgreSQL server pgknob reconfigures: a {@link ManagedCluster} it runs itself, or an existing
 * server reached by JDBC.
 *
 * <p>This is the connection part every package needs; applying and restoring settings, restarts and
 * process sampling are added by the target implementations.
 */
public interface Target {
  /** A description for people and logs: host, port, database; never a password. */
  String describe();

  /** JDBC URL of {@code database} on this server. */
  String jdbcUrl(String database);

  /** User and password for JDBC; never log or persist these properties. */
  Properties credentials();

  /** A new connection to {@code database}; the caller closes it. */
  Connection connect(String database) throws SQLException;
}
