package org.pgknob.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The control path's connections (the ones pgknob reads, changes, reloads and restores settings
 * through): a HikariCP pool whose every physical connection is a {@link ControlSession}, so the
 * startup options and the retried pins are made exactly as by hand, and nothing else is.
 *
 * <ul>
 *   <li><b>Size {@value #SIZE}.</b> The control path is serial (one lock guards every change and
 *       restore), but a failed change puts the previous settings back through a second connection
 *       while the first is still open; a third would only sit idle on the user's server.
 *   <li><b>Validation.</b> Every borrow checks the connection with {@code isValid} (HikariCP's own
 *       check skips one used in the last half second, and a restart can be that quick), so one that
 *       a restart (pgknob's or anyone's) ended is dropped and made again. The check runs on the
 *       pooled connection itself, which was pinned when it was made: a server-wide {@code
 *       statement_timeout} of 1 ms cannot cancel it.
 *   <li><b>Reset on return.</b> HikariCP resets only what a caller changed through JDBC (read-only,
 *       autocommit, isolation, catalog, schema, network timeout) and runs no SQL, so the pins, set
 *       with {@code set_config}, stay for the connection's life.
 *   <li><b>Bounded wait, failing fast.</b> A borrow waits at most {@link #WAIT} for a connection
 *       (the pool's two may both be in use); but once an attempt to make one fails (a dropped link,
 *       refused, wrong password, no such database), that failure is thrown at once as the driver
 *       gave it, as before there was a pool. HikariCP alone would retry until its wait ran out: 15
 *       s of every control step while a link is down, on top of the user's --server-wait.
 *   <li><b>No connection kept.</b> None is made until the first borrow, an idle one is closed after
 *       {@value #IDLE_SECONDS} s, {@link #evictAll()} retires every one after a reload or restart
 *       pgknob made, and {@link #close()} ends them at once.
 * </ul>
 */
final class ControlPool implements AutoCloseable {
  /** How the control connections name themselves in pg_stat_activity. */
  static final String APPLICATION_NAME = "pgknob control";

  static final int SIZE = 2;

  /**
   * How long a borrow waits: longer than a remote server's connect timeout, so the driver's own
   * failure is what the caller sees, and short enough for a user to wait for.
   */
  static final Duration WAIT = Duration.ofSeconds(RemoteServer.CONNECT_TIMEOUT_SECONDS + 5);

  /** HikariCP's least idle timeout. */
  static final int IDLE_SECONDS = 10;

  private static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(5);

  /**
   * How long one request to HikariCP waits before the borrow looks whether an attempt to connect
   * failed meanwhile (HikariCP's shortest wait is 250 ms).
   */
  private static final Duration POLL = Duration.ofMillis(500);

  /** One housekeeping thread for every control pool (HikariCP starts one per pool otherwise). */
  private static final ScheduledExecutorService HOUSEKEEPING =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "pgknob-control-pools");
            t.setDaemon(true);
            return t;
          });

  /** Makes one physical control connection (a {@link ControlSession}). */
  @FunctionalInterface
  interface Opener {
    Connection open() throws SQLException;
  }

  private final HikariDataSource pool;
  private final PinnedConnections source;
  private final Duration wait;

  /**
   * @param describe what the connections reach, for the pool's name (never credentials)
   * @param opener makes a pinned connection; called by the pool, never while a caller waits on the
   *     lock of another
   * @param wait how long a borrow may wait
   */
  ControlPool(String describe, Opener opener, Duration wait) {
    this.source = new PinnedConnections(opener, describe);
    this.wait = wait;
    HikariConfig config = new HikariConfig();
    config.setPoolName(APPLICATION_NAME.replace(' ', '-'));
    config.setDataSource(source);
    config.setMaximumPoolSize(SIZE);
    config.setMinimumIdle(0);
    config.setIdleTimeout(TimeUnit.SECONDS.toMillis(IDLE_SECONDS));
    // HikariCP's own wait is one poll; borrow() waits the whole of {@code wait} in polls.
    config.setConnectionTimeout(POLL.toMillis());
    // HikariCP's check of a connection idle for a while must fit in a poll; connection() checks
    // every borrowed one again with the full VALIDATION_TIMEOUT.
    config.setValidationTimeout(POLL.toMillis() / 2);
    // No connection at construction: a pool is made before it is known whether it will be used.
    config.setInitializationFailTimeout(-1);
    config.setAutoCommit(true);
    config.setScheduledExecutor(HOUSEKEEPING);
    this.pool = new HikariDataSource(config);
  }

  /**
   * A pinned control connection; closing it returns it to the pool.
   *
   * @throws SQLException the last failure to connect when none could be made within the wait
   */
  Connection connection() throws SQLException {
    // HikariCP skips its own check for a connection used in the last half second, and a restart
    // can be that quick; the control path borrows a few times a trial, so every borrow is checked
    // (one round trip) and a dead one is dropped and made again.
    for (int attempt = 1; ; attempt++) {
      Connection c = borrow();
      if (c.isValid((int) VALIDATION_TIMEOUT.toSeconds()) || attempt == SIZE + 1) {
        return c;
      }
      pool.evictConnection(c);
    }
  }

  private Connection borrow() throws SQLException {
    long start = System.nanoTime();
    long deadline = start + wait.toNanos();
    while (true) {
      try {
        return pool.getConnection();
      } catch (SQLTransientConnectionException e) {
        // An attempt to connect since this borrow began failed: the server is not there (or
        // refused), and waiting out the rest would only delay saying so.
        SQLException failed = source.failedSince(start);
        if (failed != null) {
          throw failed;
        }
        if (System.nanoTime() - deadline >= 0) {
          for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
              throw sql;
            }
          }
          throw new SQLTransientConnectionException(
              "no connection within " + wait.toSeconds() + " s", "08001", e);
        }
      }
    }
  }

  /**
   * Retires every connection: idle ones now, borrowed ones when they come back. After a reload or
   * restart pgknob made, the next borrow then gets a connection that started after it, which shows
   * settings of the {@code backend} context as they now are.
   */
  void evictAll() {
    var mx = pool.getHikariPoolMXBean();
    if (mx != null) {
      mx.softEvictConnections();
    }
  }

  /** The connections the pool holds now, in use or idle. */
  int open() {
    var mx = pool.getHikariPoolMXBean();
    return mx == null ? 0 : mx.getTotalConnections();
  }

  /** Ends every connection, borrowed or idle, so no backend of pgknob's is left on the server. */
  @Override
  public void close() {
    pool.close();
  }

  /**
   * What HikariCP makes its physical connections from, remembering the last attempt that failed.
   * Its {@code toString} is what HikariCP would log for it: the target's description, never the
   * credentials the opener holds.
   */
  private static final class PinnedConnections implements DataSource {
    private final Opener opener;
    private final String describe;
    private volatile Failure lastFailure;

    /** An attempt to connect that failed, and when (System.nanoTime). */
    private record Failure(long atNanos, SQLException error) {}

    PinnedConnections(Opener opener, String describe) {
      this.opener = opener;
      this.describe = describe;
    }

    @Override
    public Connection getConnection() throws SQLException {
      try {
        return opener.open();
      } catch (SQLException e) {
        lastFailure = new Failure(System.nanoTime(), e);
        throw e;
      }
    }

    /** The failure of an attempt that ended after {@code startNanos}, or null. */
    SQLException failedSince(long startNanos) {
      Failure f = lastFailure;
      return f != null && f.atNanos() - startNanos > 0 ? f.error() : null;
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      throw new SQLFeatureNotSupportedException("the control connections carry their own user");
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
      // nothing is logged here
    }

    @Override
    public void setLoginTimeout(int seconds) {
      // the opener's driver properties set the connect timeout
    }

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException("no java.util.logging here");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }

    @Override
    public String toString() {
      return "control connections to " + describe;
    }
  }
}
