package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.pgknob.PgknobException;

/**
 * Creates, marks, drops and copies the TPROC-C databases through a connection to the server's
 * maintenance database. It drops or replaces only databases that carry pgknob's mark, so a user's
 * own database of the same name is never touched.
 */
final class TproccDatabases {
  /**
   * The suffix of the pristine copy's name: {@code tprocc} is reset from {@code tprocc_pristine}.
   */
  static final String PRISTINE_SUFFIX = "_pristine";

  private final Connection admin;

  /** {@code admin} is an autocommit connection to a database other than the ones managed here. */
  TproccDatabases(Connection admin) {
    this.admin = admin;
  }

  static String pristineName(String database) {
    return database + PRISTINE_SUFFIX;
  }

  /** The database's comment: empty when it does not exist, "" when it has none. */
  Optional<String> comment(String database) throws SQLException {
    try (PreparedStatement ps =
        admin.prepareStatement(
            "SELECT coalesce(shobj_description(oid, 'pg_database'), '') FROM pg_database"
                + " WHERE datname = ?")) {
      ps.setString(1, database);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /**
   * The mark of an existing database, or empty when it does not exist.
   *
   * @throws PgknobException when it exists but pgknob did not create it
   */
  Optional<DatabaseMark> mark(String database) throws SQLException {
    Optional<String> comment = comment(database);
    if (comment.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        DatabaseMark.parse(comment.get())
            .orElseThrow(
                () ->
                    new PgknobException(
                        "the database "
                            + database
                            + " exists but pgknob did not create it (its comment is not pgknob's),"
                            + " so pgknob will neither build into it nor drop it",
                        "choose another name with --database, or drop it yourself")));
  }

  /** Throws unless the database was built by this version of pgknob's TPROC-C schema. */
  static void requireCurrentVersion(String database, DatabaseMark mark) {
    if (!mark.isCurrentVersion()) {
      throw new PgknobException(
          "the database "
              + database
              + " holds a TPROC-C schema from another pgknob version (v"
              + mark.version()
              + "; this pgknob uses v"
              + DatabaseMark.CURRENT_VERSION
              + ")",
          "rebuild it with: pgknob tprocc build --rebuild");
    }
  }

  /** Creates an empty database and marks it as pgknob's before anything goes into it. */
  void createMarked(String database, DatabaseMark mark) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + database);
      setMark(st, database, mark);
    }
  }

  void setMark(String database, DatabaseMark mark) throws SQLException {
    try (Statement st = admin.createStatement()) {
      setMark(st, database, mark);
    }
  }

  private static void setMark(Statement st, String database, DatabaseMark mark)
      throws SQLException {
    st.execute("COMMENT ON DATABASE " + database + " IS '" + mark.comment() + "'");
  }

  /**
   * Drops the database if it exists and carries pgknob's mark (of any version); refuses otherwise.
   * Sessions still connected to it are ended: it is pgknob's own.
   */
  void dropIfOurs(String database) throws SQLException {
    if (mark(database).isEmpty()) {
      return;
    }
    try (Statement st = admin.createStatement()) {
      st.execute("DROP DATABASE " + database + " WITH (FORCE)");
    }
  }

  /**
   * Replaces {@code database} with a fresh copy of its pristine database. FILE_COPY copies the
   * files after a checkpoint; WAL_LOG (the default) would write the whole database to the WAL,
   * which then forces checkpoints into the next trial's window.
   *
   * @return seconds the reset took
   */
  double resetFromPristine(String database) throws SQLException {
    long started = System.nanoTime();
    String pristine = pristineName(database);
    DatabaseMark pristineMark =
        mark(pristine)
            .orElseThrow(
                () ->
                    new PgknobException(
                        "the pristine copy " + pristine + " that resets start from is missing",
                        "build it with: pgknob tprocc build --warehouses N"));
    requireCurrentVersion(pristine, pristineMark);
    if (pristineMark.role() != DatabaseMark.Role.PRISTINE) {
      throw new PgknobException(
          "the database " + pristine + " is not a finished pristine copy (an interrupted build?)",
          "rebuild with: pgknob tprocc build --rebuild");
    }
    dropIfOurs(database);
    try (Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + database + " TEMPLATE " + pristine + " STRATEGY " + STRATEGY);
      setMark(st, database, DatabaseMark.live(pristineMark.warehouses()));
    }
    return (System.nanoTime() - started) / 1e9;
  }

  /** The copy strategy of resets (see {@link #resetFromPristine}); measured faster here too. */
  static final String STRATEGY = "FILE_COPY";

  /** Keeps sessions out of the pristine copy: CREATE DATABASE ... TEMPLATE fails if any is in. */
  void closeToConnections(String database) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS false");
    }
  }
}
