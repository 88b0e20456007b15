package org.pgknob.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.pgknob.PgknobException;
import org.pgknob.server.Privileges;
import org.pgknob.server.Target;

/**
 * Creates, marks, drops and copies a workload's databases through a connection to the server's
 * maintenance database. It builds into, resets or drops only databases that carry the workload's
 * {@link DatabaseMark}, so a user's own database of the same name is never touched.
 */
public final class MarkedDatabases {
  /** The database pgknob connects to for CREATE and DROP DATABASE. */
  public static final String MAINTENANCE_DATABASE = "postgres";

  /**
   * The suffix of the pristine copy's name: {@code tprocc_w2} is reset from {@code ..._pristine}.
   */
  public static final String PRISTINE_SUFFIX = "_pristine";

  private final Connection admin;
  private final MarkFormat format;
  private final String notOursFix;
  private final String rebuildFix;

  /**
   * @param admin an autocommit connection to a database other than the ones managed here
   * @param notOursFix what a user does about a database of the name that is not pgknob's
   * @param rebuildFix how the workload's databases are built again (a missing or unfinished copy)
   */
  public MarkedDatabases(
      Connection admin, MarkFormat format, String notOursFix, String rebuildFix) {
    this.admin = admin;
    this.format = format;
    this.notOursFix = notOursFix;
    this.rebuildFix = rebuildFix;
  }

  /**
   * Resets {@code database} on {@code server} from its pristine copy (see {@link
   * #resetFromPristine}) over a connection of its own to the maintenance database.
   *
   * @param databases the workload's marked databases on that connection
   * @return seconds the reset took
   */
  public static double reset(
      Target server, Function<Connection, MarkedDatabases> databases, String database) {
    try (Connection admin = server.connect(MAINTENANCE_DATABASE)) {
      // The copy is pgknob's scratch data: its DROP and CREATE DATABASE need not wait for a
      // synchronous standby. One that went away since the last trial would hold them for good;
      // local commits let the reset end, and the run's stall check then names the standby.
      try (Statement st = admin.createStatement()) {
        st.execute("SET synchronous_commit = local");
      }
      return databases.apply(admin).resetFromPristine(database);
    } catch (SQLException e) {
      throw BuildFailure.of(
          "resetting the database " + database, e, "check the server's log and free disk space");
    }
  }

  public static String pristineName(String database) {
    return database + PRISTINE_SUFFIX;
  }

  /** The database's comment: empty when it does not exist, "" when it has none. */
  public Optional<String> comment(String database) throws SQLException {
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
   * The mark of an existing database, or empty when it does not exist. A database without a comment
   * that a reset copied and could not mark (see {@link #resetFromPristine}) is marked now,
   * finishing that reset.
   *
   * @throws PgknobException when it exists but pgknob did not create it for this workload
   */
  public Optional<DatabaseMark> mark(String database) throws SQLException {
    Optional<String> comment = comment(database);
    if (comment.isEmpty()) {
      return Optional.empty();
    }
    if (comment.get().isEmpty()) {
      Optional<DatabaseMark> finished = finishCutReset(database);
      if (finished.isPresent()) {
        return finished;
      }
    }
    return Optional.of(
        format
            .parse(comment.get())
            .orElseThrow(
                () ->
                    new PgknobException(
                        "the database "
                            + database
                            + " exists but pgknob did not create it for "
                            + format.kind()
                            + " (its comment is not pgknob's), so pgknob will neither build into"
                            + " it, reset it nor drop it",
                        notOursFix)));
  }

  /**
   * The databases of this workload whose finished pristine copy is on the server, by name: what a
   * reset of another name could have meant.
   */
  private List<String> databasesWithPristineCopies() throws SQLException {
    List<String> out = new ArrayList<>();
    List<String> copies = new ArrayList<>();
    try (Statement st = admin.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT datname FROM pg_database WHERE right(datname, "
                    + PRISTINE_SUFFIX.length()
                    + ") = '"
                    + PRISTINE_SUFFIX
                    + "' ORDER BY datname")) {
      while (rs.next()) {
        copies.add(rs.getString(1));
      }
    }
    for (String copy : copies) {
      Optional<String> comment = comment(copy);
      if (comment.isPresent()
          && format
              .parse(comment.get())
              .map(m -> m.role() == DatabaseMark.Role.PRISTINE)
              .orElse(false)) {
        out.add(copy.substring(0, copy.length() - PRISTINE_SUFFIX.length()));
      }
    }
    return out;
  }

  /** Throws unless {@code mark} was made by this version of the workload's schema. */
  public void requireCurrentVersion(String database, DatabaseMark mark) {
    if (!mark.isCurrentVersion()) {
      throw new PgknobException(
          "the database "
              + database
              + " holds a "
              + format.kind()
              + " schema from another pgknob version (v"
              + mark.version()
              + "; this pgknob uses v"
              + format.currentVersion()
              + ")",
          rebuildFix);
    }
  }

  /** Creates an empty database and marks it as pgknob's before anything goes into it. */
  public void createMarked(String database, DatabaseMark mark) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + database);
    }
    setMark(database, mark);
  }

  public void setMark(String database, DatabaseMark mark) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("COMMENT ON DATABASE " + database + " IS '" + mark.comment() + "'");
    }
  }

  /**
   * Drops the database if it exists and carries the workload's mark (of any version); refuses
   * otherwise. Sessions still connected to it are ended: it is pgknob's own.
   *
   * <p>A superuser drops it WITH (FORCE), which signals every process in the database first. A role
   * that is not a superuser may signal only its own sessions (or, with pg_signal_backend, other
   * roles' sessions that are not a superuser's), and an autovacuum worker is neither: on Debian's
   * PostgreSQL 15, with autovacuum cleaning up after each trial, a session's fifth trial failed
   * with "must be a member of the role whose process is being terminated", and after a first fix
   * that tried FORCE first, the server logged that ERROR at nearly every reset. Such a role ends
   * its own sessions and drops without FORCE, which ends autovacuum workers itself and waits up to
   * 5 s for the rest; only another role's session still connected then is worth a FORCE.
   */
  public void dropIfOurs(String database) throws SQLException {
    if (mark(database).isEmpty()) {
      return;
    }
    if (Privileges.isSuperuser(admin)) {
      execute("DROP DATABASE " + database + " WITH (FORCE)");
      return;
    }
    endOwnSessions(database);
    try {
      execute("DROP DATABASE " + database);
    } catch (SQLException inUse) {
      if (!OBJECT_IN_USE.equals(inUse.getSQLState())) {
        throw inUse;
      }
      try {
        execute("DROP DATABASE " + database + " WITH (FORCE)");
      } catch (SQLException e) {
        if (!INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
          throw e;
        }
        throw new PgknobException(
            "the database "
                + database
                + " is pgknob's, but a session of another role is connected to it, which role "
                + currentRole()
                + " may not end",
            "end it (SELECT pid, usename, application_name FROM pg_stat_activity WHERE datname ="
                + " '"
                + database
                + "'), or as a superuser run: GRANT pg_signal_backend TO \""
                + currentRole().replace("\"", "\"\"")
                + "\"");
      }
    }
  }

  private void execute(String sql) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute(sql);
    }
  }

  /** SQLSTATE of a statement the role lacks a privilege for. */
  private static final String INSUFFICIENT_PRIVILEGE = "42501";

  /** SQLSTATE of DROP DATABASE while other sessions are connected to it. */
  private static final String OBJECT_IN_USE = "55006";

  private void endOwnSessions(String database) throws SQLException {
    try (PreparedStatement ps =
        admin.prepareStatement(
            "SELECT pg_catalog.pg_terminate_backend(pid) FROM pg_catalog.pg_stat_activity"
                + " WHERE datname OPERATOR(pg_catalog.=) ?"
                + " AND usename OPERATOR(pg_catalog.=) current_user"
                + " AND pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()")) {
      ps.setString(1, database);
      ps.executeQuery().close();
    }
  }

  private String currentRole() throws SQLException {
    try (Statement st = admin.createStatement();
        ResultSet rs = st.executeQuery("SELECT current_user")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** Keeps sessions out of the pristine copy: CREATE DATABASE ... TEMPLATE fails if any is in. */
  public void closeToConnections(String database) throws SQLException {
    try (Statement st = admin.createStatement()) {
      st.execute("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS false");
    }
  }

  /**
   * Replaces {@code database} with a fresh copy of its finished pristine copy. FILE_COPY copies the
   * files after a checkpoint; WAL_LOG (the default) would write the whole database to the WAL,
   * which then forces checkpoints into the next trial's window.
   *
   * @return seconds the reset took
   */
  public double resetFromPristine(String database) throws SQLException {
    long started = System.nanoTime();
    String pristine = pristineName(database);
    Optional<DatabaseMark> found = mark(pristine);
    if (found.isEmpty()) {
      List<String> others = databasesWithPristineCopies();
      throw new PgknobException(
          "the pristine copy " + pristine + " that resets start from is missing",
          others.isEmpty()
              ? rebuildFix
              // tune builds tprocc_w2, and tprocc run reads tprocc unless told: name what is here
              : "give --database "
                  + String.join(" or --database ", others)
                  + " (built here), or "
                  + rebuildFix);
    }
    DatabaseMark pristineMark = found.get();
    requireCurrentVersion(pristine, pristineMark);
    if (pristineMark.role() != DatabaseMark.Role.PRISTINE) {
      throw new PgknobException(
          "the database " + pristine + " is not a finished pristine copy (an interrupted build?)",
          rebuildFix);
    }
    dropIfOurs(database);
    // CREATE DATABASE and COMMENT ON DATABASE cannot share a transaction: a kill -9, or the JVM's
    // exit after Ctrl-C, between them would leave a copy without pgknob's mark, which pgknob may
    // not touch. The pristine copy says a reset is under way until the copy is marked, so the
    // next look at the copy can tell it is pgknob's and finish the reset (finishCutReset).
    setMark(pristine, pristineMark.withResetting(true));
    try (Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + database + " TEMPLATE " + pristine + " STRATEGY FILE_COPY");
    }
    setMark(database, format.live(pristineMark.size()));
    setMark(pristine, pristineMark.withResetting(false));
    return (System.nanoTime() - started) / 1e9;
  }

  /**
   * Marks {@code database} as pgknob's live copy when it is the copy of a reset cut short between
   * CREATE DATABASE and COMMENT ON DATABASE: it has no comment, its pristine copy says a reset is
   * under way, and it is byte for byte as large as that copy (nothing used it since: a user's own
   * database of the name would not be). Empty otherwise.
   */
  private Optional<DatabaseMark> finishCutReset(String database) throws SQLException {
    if (database.endsWith(PRISTINE_SUFFIX)) {
      return Optional.empty();
    }
    String pristine = pristineName(database);
    Optional<DatabaseMark> pristineMark = comment(pristine).flatMap(format::parse);
    if (pristineMark.isEmpty()
        || !pristineMark.get().resetting()
        || !pristineMark.get().isFinished(DatabaseMark.Role.PRISTINE)
        || !sameSize(database, pristine)) {
      return Optional.empty();
    }
    DatabaseMark live = format.live(pristineMark.get().size());
    setMark(database, live);
    setMark(pristine, pristineMark.get().withResetting(false));
    return Optional.of(live);
  }

  /** False too when a size cannot be read (a user's database pgknob's role may not connect to). */
  private boolean sameSize(String database, String pristine) {
    try (PreparedStatement ps =
        admin.prepareStatement(
            "SELECT pg_catalog.pg_database_size(?) OPERATOR(pg_catalog.=)"
                + " pg_catalog.pg_database_size(?)")) {
      ps.setString(1, database);
      ps.setString(2, pristine);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    } catch (SQLException e) {
      return false;
    }
  }
}
