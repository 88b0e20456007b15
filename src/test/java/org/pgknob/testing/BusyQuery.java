package org.pgknob.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A query that keeps one core of the shared server busy, on a connection of its own (the database
 * {@code postgres}, no parallel workers): another client of the server. {@link #start()} runs until
 * closed; {@link #forSeconds} ends by itself, and closing it waits for that.
 */
public final class BusyQuery implements AutoCloseable {
  private final Connection conn;
  private final Statement st;
  private final Thread thread;
  private final boolean cancelOnClose;

  private BusyQuery(Connection conn, Statement st, Thread thread, boolean cancelOnClose) {
    this.conn = conn;
    this.st = st;
    this.thread = thread;
    this.cancelOnClose = cancelOnClose;
  }

  /** Busy until closed. */
  public static BusyQuery start() throws SQLException {
    return run("SELECT pg_catalog.count(*) FROM generate_series(1, 400000000)", true);
  }

  /** Busy for {@code seconds} of the server's clock, then done. */
  public static BusyQuery forSeconds(int seconds) throws SQLException {
    return run(
        "DO $$ DECLARE stop timestamptz := clock_timestamp() + interval '"
            + seconds
            + " seconds'; BEGIN WHILE clock_timestamp() < stop LOOP END LOOP; END $$",
        false);
  }

  private static BusyQuery run(String sql, boolean cancelOnClose) throws SQLException {
    Connection conn = SharedPostgres.connect();
    Statement st = conn.createStatement();
    st.execute("SET max_parallel_workers_per_gather = 0");
    Thread thread =
        new Thread(
            () -> {
              try {
                st.execute(sql);
              } catch (SQLException e) {
                // cancelled by close
              }
            },
            "busy-query");
    thread.start();
    return new BusyQuery(conn, st, thread, cancelOnClose);
  }

  @Override
  public void close() throws SQLException, InterruptedException {
    try (conn;
        st) {
      if (cancelOnClose) {
        st.cancel();
      }
      thread.join();
    }
  }
}
