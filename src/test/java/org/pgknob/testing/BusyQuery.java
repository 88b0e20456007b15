package org.pgknob.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.pgknob.testing.SharedPostgres;

/**
 * A query that keeps one core of the shared server busy, on a connection of its own (the database
 * {@code postgres}, no parallel workers), until closed: another client of the server.
 */
final class BusyQuery implements AutoCloseable {
  private final Connection conn;
  private final Statement st;
  private final Thread thread;

  private BusyQuery(Connection conn, Statement st, Thread thread) {
    this.conn = conn;
    this.st = st;
    this.thread = thread;
  }

  static BusyQuery start() throws SQLException {
    Connection conn = SharedPostgres.connect();
    Statement st = conn.createStatement();
    st.execute("SET max_parallel_workers_per_gather = 0");
    Thread thread =
        new Thread(
            () -> {
              try {
                st.execute("SELECT pg_catalog.count(*) FROM generate_series(1, 400000000)");
              } catch (SQLException e) {
                // cancelled by close
              }
            });
    thread.start();
    return new BusyQuery(conn, st, thread);
  }

  @Override
  public void close() throws SQLException, InterruptedException {
    try (conn;
        st) {
      st.cancel();
      thread.join();
    }
  }
}
