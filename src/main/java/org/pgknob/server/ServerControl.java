package org.pgknob.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * What differs between a managed cluster and an existing server when pgknob changes settings: how
 * to connect, restart, read postgresql.auto.conf, and repair a server that does not start.
 */
interface ServerControl {
  TargetIdentity identity();

  String describe();

  /** A connection for reading and changing settings; the caller closes it. */
  Connection connect() throws SQLException;

  /** True when the server accepts a connection within {@code wait}. */
  boolean answers(Duration wait);

  /**
   * True when the server was running before this pgknob opened it (recorded at the first change).
   */
  default boolean runningWhenOpened() {
    return true;
  }

  /** False when this server cannot be restarted by pgknob (no restart command given). */
  boolean canRestart();

  /**
   * Restarts the server and waits until it answers.
   *
   * @throws ServerStartException with the server's or the restart command's message when it does
   *     not come back
   */
  void restart();

  /** The current content of postgresql.auto.conf, when pgknob can read it. */
  Optional<String> readAutoConf(Connection conn);

  /**
   * Brings a server that is down back with this postgresql.auto.conf content, written the way ALTER
   * SYSTEM writes it.
   *
   * @return false when this server's file cannot be reached from here (nothing was done)
   * @throws ServerStartException when it still does not start
   */
  boolean startWithAutoConf(String content);

  /**
   * Writes postgresql.auto.conf as given while the server runs, the way ALTER SYSTEM does (a
   * temporary file renamed over it). Used only with content that holds the same settings as the
   * file now, to give the user back their file byte for byte; no reload is needed.
   *
   * @return false when this server's file cannot be written from here (nothing was done)
   */
  boolean rewriteAutoConf(String content);

  /**
   * Checks the connected role may change {@code names} and reload the configuration.
   *
   * @throws org.pgknob.PgknobException naming each missing privilege and the GRANT that fixes it
   */
  void checkPrivileges(Connection conn, Set<String> names) throws SQLException;
}
