package org.pgknob.workload.driver;

import java.util.Properties;
import org.pgknob.server.Target;

/**
 * A workload's {@link DriverPool}, made on its first run and kept for the next runs on the same
 * server, so connections the server dropped (a restart, a reset) are replaced by the pool. A run on
 * another server gets a pool of its own.
 */
public final class PoolPerTarget {
  private final String database;
  private final int users;
  private final String applicationName;
  private final Properties properties;
  private Target target;
  private DriverPool pool;

  public PoolPerTarget(String database, int users, String applicationName, Properties properties) {
    this.database = database;
    this.users = users;
    this.applicationName = applicationName;
    this.properties = (Properties) properties.clone();
  }

  public synchronized DriverPool of(Target server) {
    if (pool != null && target != server) {
      pool.close();
      pool = null;
    }
    if (pool == null) {
      pool = new DriverPool(server, database, users, applicationName, properties);
      target = server;
    }
    return pool;
  }
}
