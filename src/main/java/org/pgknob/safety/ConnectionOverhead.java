package org.pgknob.safety;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.pgknob.PgknobException;
import org.pgknob.server.ProcessSample;
import org.pgknob.server.ProcessSampler;
import org.pgknob.server.Target;

/**
 * Measures the memory one connection costs the server: the growth of the process tree's PSS when
 * {@code n} idle connections are opened, each having run a query over the catalogs (a fresh
 * backend's caches fill on first use), divided by {@code n}. PSS counts shared memory once, so this
 * is each backend's private memory plus its page tables, not shared_buffers again.
 */
public final class ConnectionOverhead {
  /**
   * What to assume when the overhead cannot be measured (a server on another host, PSS unreadable):
   * 10 MiB, above what an idle PostgreSQL 16-18 backend that has run a few queries typically holds
   * (about 2-6 MiB private), so the prediction errs on the safe side.
   */
  public static final long FALLBACK_BYTES = 10L << 20;

  private ConnectionOverhead() {}

  /**
   * Opens {@code connections} connections to {@code database}, samples PSS before and after, and
   * closes them again.
   *
   * @return bytes per connection, at least 0
   * @throws PgknobException when PSS cannot be read (then use the rules' fallback)
   */
  public static long measure(
      Target target, String database, ProcessSampler sampler, int connections) {
    if (connections < 1) {
      throw new IllegalArgumentException("need at least one connection, got " + connections);
    }
    ProcessSample before = sampler.sampleNow();
    List<Connection> opened = new ArrayList<>();
    try {
      for (int i = 0; i < connections; i++) {
        Connection c = target.connect(database);
        opened.add(c);
        try (Statement st = c.createStatement()) {
          st.execute("SELECT count(*) FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid");
        }
      }
      ProcessSample after = sampler.sampleNow();
      if (before.pssBytes() < 0 || after.pssBytes() < 0) {
        throw new PgknobException(
            "cannot measure the memory of a connection: the server's smaps_rollup is unreadable",
            "run pgknob as root or as the server's user, or rely on the rules' fallback");
      }
      return Math.max(0, (after.pssBytes() - before.pssBytes()) / connections);
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot open " + connections + " connections to measure their memory: " + e.getMessage(),
          "check max_connections and the server's state",
          e);
    } finally {
      for (Connection c : opened) {
        try {
          c.close();
        } catch (SQLException e) {
          // closing an idle connection cannot fail in a way that matters here
        }
      }
    }
  }
}
