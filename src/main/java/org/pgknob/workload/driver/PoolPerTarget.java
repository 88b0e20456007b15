package org.pgknob.workload.driver;

import java.util.Properties;
import org.pgknob.server.Target;

/**
 * A workload's {@link DriverPool}, made on its first run and kept for the next runs on the same
 * server, so connections the server dropped (a restart, a reset) are replaced by the pool. A run on
 * another server gets a pool of its own. The workload that owns it closes it when it ends.
 */
public final class PoolPerTarget implements AutoCloseable {
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

  /** Closes the pool, if a run made one; a later run would make a new one. */
  @Override
  public synchronized void close() {
    if (pool != null) {
      pool.close();
      pool = null;
      target = null;
    }
  }
}
