package org.pgknob.workload.pgbench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.pgknob.PgknobException;

/**
 * Creates, marks, drops and copies the pgbench databases through a connection to the maintenance
 * database. It builds into, resets or drops only databases that carry pgknob's pgbench mark.
 */
final class PgbenchDatabases {
  static final String MAINTENANCE_DATABASE = "postgres";

  private final Connection admin;

  PgbenchDatabases(Connection admin) {
    this.admin = admin;
  }

  /**
   * The mark of an existing database, or empty when it does not exist.
   *
   * @throws PgknobException when it exists but is not pgknob's pgbench database
   */
  Optional<PgbenchMark> mark(String database) throws SQLException {
    try (PreparedStatement ps =
        admin.prepareStatement(
            "SELECT coalesce(shobj_description(oid, 'pg_database'), '') FROM pg_database"
                + " WHERE datname = ?")) {
      ps.setString(1, database);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        String comment = rs.getString(1);
        return Optional.of(
            PgbenchMark.parse(comment)
                .orElseThrow(
                    () ->
                        new PgknobException(
                            "the database "
                                + database
                                + " exists but pgknob did not create it for pgbench (its comment"
                                + " is not pgknob's), so pgknob will neither build into it, reset"
                                + " it nor drop it",
                            "drop or rename it yourself, or use another --scale")));
      }
    }
  }

  void create(String database, PgbenchMark mark) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + database);
    }
    setMark(database, mark);
  }

  void setMark(String database, PgbenchMark mark) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("COMMENT ON DATABASE " + database + " IS '" + mark.comment() + "'");
    }
  }

  /** Drops the database if it exists and carries pgknob's pgbench mark; refuses otherwise. */
  void dropIfOurs(String database) throws SQLException {
    if (mark(database).isPresent()) {
      try (Statement st = admin.createStatement()) {
        st.execute("DROP DATABASE " + database + " WITH (FORCE)");
      }
    }
  }

  /** Keeps sessions out of the pristine copy: CREATE DATABASE ... TEMPLATE fails if one is in. */
  void closeToConnections(String database) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS false");
    }
  }

  /**
   * Replaces {@code live} with a fresh copy of {@code pristine} (FILE_COPY, as TPROC-C's resets: no
   * WAL for the whole database that would force checkpoints into the next window).
   *
   * @return seconds the reset took
   */
  double resetFromPristine(String live, String pristine) throws SQLException {
    long started = System.nanoTime();
    PgbenchMark mark =
        mark(pristine)
            .filter(m -> m.isFinished(PgbenchMark.Role.PRISTINE))
            .orElseThrow(
                () ->
                    new PgknobException(
                        "the pristine copy " + pristine + " that resets start from is missing",
                        "run the session again: pgknob builds it on first use"));
    dropIfOurs(live);
    try (Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + live + " TEMPLATE " + pristine + " STRATEGY FILE_COPY");
    }
    setMark(live, PgbenchMark.live(mark.scale()));
    return (System.nanoTime() - started) / 1e9;
  }
}
