package org.pgknob.workload.driver;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;

/**
 * The connections of one workload's driver: a HikariCP pool to its database, sized to the clients
 * plus the monitor, every wait bounded. A connection is validated before it is handed out, and one
 * that cannot be made is tried again until {@link #CONNECT_TIMEOUT_SECONDS}, so after a trial that
 * restarted the server (or a reset that dropped the database under the pool's idle connections) the
 * next run gets fresh connections with no reconnect code of its own. The pool holds no connection
 * between runs for longer than {@link #IDLE_SECONDS}: they would count in the server's memory and
 * stand in the way of the next reset.
 *
 * <p>Only the workload's own connections come from here; never a session-bound one (the server
 * lock's advisory-lock connection must stay the one connection that took the lock).
 */
public final class DriverPool implements AutoCloseable {
  /** How long a run waits for a connection (a server still starting up is tried again). */
  public static final int CONNECT_TIMEOUT_SECONDS = 15;

  /** A call that takes longer than this is treated as a server that stopped answering. */
  public static final int CLIENT_SOCKET_TIMEOUT_SECONDS = 120;

  /** The monitor also runs the CHECKPOINT after the window, which can take minutes. */
  public static final int MONITOR_SOCKET_TIMEOUT_SECONDS = 900;

  /** An idle connection is closed after this (HikariCP's least). */
  public static final int IDLE_SECONDS = 10;

  private static final int VALIDATION_TIMEOUT_SECONDS = 5;

  /**
   * One housekeeping thread for every pool (HikariCP starts one per pool otherwise): a session's
   * workload keeps its pool for the session, and a JVM that runs many sessions (the tests) would
   * gather a thread per session.
   */
  private static final ScheduledExecutorService HOUSEKEEPING =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "pgknob-driver-pools");
            t.setDaemon(true);
            return t;
          });

  static {
    // HikariCP skips validating a connection that was in use within the last 500 ms; after a
    // quick restart (or a reset's DROP DATABASE WITH FORCE) between two runs it would then hand
    // out a dead connection. A run borrows each connection once, so validating every time costs
    // nothing that shows. HikariCP offers this only as a JVM-wide system property (read as each
    // pool is built), so it is set once, before the first pool.
    System.setProperty("com.zaxxer.hikari.aliveBypassWindowMs", "0");
  }

  private final HikariDataSource pool;
  private final String database;

  /**
   * @param users the clients; the pool holds at most one more (the monitor)
   * @param applicationName how the connections name themselves in pg_stat_activity, so the
   *     guardrail stops only the workload's backends
   * @param extra further pgJDBC properties, e.g. preferQueryMode
   */
  public DriverPool(
      Target target, String database, int users, String applicationName, Properties extra) {
    this.database = database;
    HikariConfig config = new HikariConfig();
    config.setPoolName(applicationName.replace(' ', '-') + "-" + database);
    config.setJdbcUrl(target.jdbcUrl(database));
    Properties props = new Properties();
    props.putAll(target.credentials());
    props.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    props.setProperty("socketTimeout", Integer.toString(CLIENT_SOCKET_TIMEOUT_SECONDS));
    props.setProperty("loginTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    props.setProperty("tcpKeepAlive", "true");
    props.setProperty("ApplicationName", applicationName);
    props.putAll(extra);
    config.setDataSourceProperties(props);
    config.setMaximumPoolSize(users + 1);
    config.setMinimumIdle(0);
    config.setIdleTimeout(TimeUnit.SECONDS.toMillis(IDLE_SECONDS));
    config.setConnectionTimeout(TimeUnit.SECONDS.toMillis(CONNECT_TIMEOUT_SECONDS));
    config.setValidationTimeout(TimeUnit.SECONDS.toMillis(VALIDATION_TIMEOUT_SECONDS));
    // No connection at construction: the server may be down until the first run.
    config.setInitializationFailTimeout(-1);
    config.setAutoCommit(true);
    config.setScheduledExecutor(HOUSEKEEPING);
    this.pool = new HikariDataSource(config);
  }

  /**
   * A client's connection: autocommit, a socket timeout of {@link #CLIENT_SOCKET_TIMEOUT_SECONDS}.
   */
  public Connection client() throws SQLException {
    return pool.getConnection();
  }

  /** The monitor's connection: its socket timeout is {@link #MONITOR_SOCKET_TIMEOUT_SECONDS}. */
  public Connection monitor() throws SQLException {
    Connection c = pool.getConnection();
    c.setNetworkTimeout(
        Runnable::run, (int) TimeUnit.SECONDS.toMillis(MONITOR_SOCKET_TIMEOUT_SECONDS));
    return c;
  }

  /**
   * Ends a connection that may be in the middle of a call or a transaction (a stuck client, a
   * failed run) at once, and keeps the pool from handing it out again.
   */
  public void discard(Connection c) {
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // closing is best effort
    }
    pool.evictConnection(c);
  }

  /** The connections the pool holds now, in use or idle (for tests and messages). */
  public int open() {
    var mx = pool.getHikariPoolMXBean();
    return mx == null ? 0 : mx.getTotalConnections();
  }

  public String database() {
    return database;
  }

  /**
   * Closes every connection the pool holds, idle or borrowed, at once (rather than after {@link
   * #IDLE_SECONDS} idle), so a workload that ended leaves no backend on the server.
   */
  @Override
  public void close() {
    pool.close();
  }

  /** A pool's wait that ran out, as one message a user can act on. */
  static PgknobException unreachable(String workload, String database, SQLException e) {
    return new PgknobException(
        "the "
            + workload
            + " run could not connect to the database "
            + database
            + " within "
            + CONNECT_TIMEOUT_SECONDS
            + " s: "
            + e.getMessage(),
        "check that the server is running and accepts connections",
        e);
  }
}
