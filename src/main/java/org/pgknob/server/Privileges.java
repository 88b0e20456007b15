package org.pgknob.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.pgknob.PgknobException;

/**
 * What the connected role may do: pgknob needs a superuser, or on PostgreSQL 15 and later ALTER
 * SYSTEM granted on each setting it changes, EXECUTE on pg_reload_conf() and pg_read_all_settings
 * (to see where each original value came from).
 */
public final class Privileges {
  private Privileges() {}

  /**
   * Checks the role may change {@code names}.
   *
   * @throws PgknobException naming each missing privilege and the GRANT statements that fix it
   */
  static void require(Connection conn, Collection<String> names) throws SQLException {
    List<String> grants = missingGrants(conn, names);
    if (!grants.isEmpty()) {
      String role = currentUser(conn);
      throw new PgknobException(
          "role "
              + role
              + " may not change "
              + String.join(", ", names)
              + ": it is not a superuser and lacks "
              + grants.size()
              + " privilege(s)",
          "as a superuser run: " + statements(grants));
    }
  }

  /** The GRANT statements the role needs to change {@code names}; empty when it has all. */
  public static List<String> missingGrants(Connection conn, Collection<String> names)
      throws SQLException {
    List<String> grants = new ArrayList<>();
    if (isSuperuser(conn)) {
      return grants;
    }
    String role = SqlQuoting.identifier(currentUser(conn));
    if (versionNum(conn) < 150000) {
      grants.add(
          "ALTER ROLE "
              + role
              + " SUPERUSER /* ALTER SYSTEM needs a superuser before PostgreSQL 15 */");
      return grants;
    }
    try (PreparedStatement ps =
        conn.prepareStatement("SELECT pg_catalog.has_parameter_privilege(?, 'ALTER SYSTEM')")) {
      for (String name : names) {
        ps.setString(1, name);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (!rs.getBoolean(1)) {
            grants.add("GRANT ALTER SYSTEM ON PARAMETER " + name + " TO " + role);
          }
        }
      }
    }
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT pg_catalog.has_function_privilege('pg_catalog.pg_reload_conf()', 'EXECUTE'),"
                    + " pg_catalog.pg_has_role('pg_read_all_settings', 'USAGE')")) {
      rs.next();
      if (!rs.getBoolean(1)) {
        grants.add("GRANT EXECUTE ON FUNCTION pg_catalog.pg_reload_conf() TO " + role);
      }
      if (!rs.getBoolean(2)) {
        grants.add("GRANT pg_read_all_settings TO " + role);
      }
    }
    return grants;
  }

  /**
   * Checks, before a session's first trial, that the role may change every knob of the session and,
   * for a workload that builds and resets its own database (TPROC-C drops and re-creates it from a
   * pristine copy for every trial), create databases, and for a workload whose windows pgknob times
   * run CHECKPOINT. Nothing is changed either way.
   *
   * <p>Why CHECKPOINT is required: the one after each window charges the window for the writes it
   * deferred. Without it a setting that only postpones writes past a short window (a larger
   * max_wal_size, a longer checkpoint_timeout) looks faster than it is, and the one before each
   * window keeps the reset's and the ramp-up's dirty pages out of it. Before, a role without
   * pg_checkpoint ran its session without a word of this.
   *
   * @throws PgknobException listing every statement a superuser must run
   */
  public static void requireForSession(
      Connection conn, Collection<String> knobs, boolean createsDatabases, boolean checkpoints)
      throws SQLException {
    List<String> statements = missingGrants(conn, knobs);
    if (createsDatabases && !isSuperuser(conn) && !single(conn, ROLE_CREATEDB).equals("t")) {
      statements.add(
          "ALTER ROLE "
              + SqlQuoting.identifier(currentUser(conn))
              + " CREATEDB /* the workload creates and resets its database for every trial */");
    }
    if (checkpoints && !isSuperuser(conn) && !hasPgCheckpoint(conn)) {
      statements.add(
          "GRANT pg_checkpoint TO "
              + SqlQuoting.identifier(currentUser(conn))
              + " /* the CHECKPOINT around each window: without it a setting that postpones"
              + " writes past the window looks faster than it is */");
    }
    if (!statements.isEmpty()) {
      throw new PgknobException(
          "role "
              + currentUser(conn)
              + " is not a superuser and lacks "
              + statements.size()
              + " privilege(s) this session needs; nothing was changed",
          "as a superuser run: " + statements(statements));
    }
  }

  /**
   * The statements as psql runs them when pasted: each ends in a semicolon (the last one too), and
   * each reason is a comment.
   */
  private static String statements(List<String> statements) {
    return String.join("; ", statements) + ";";
  }

  /**
   * Whether the role has pg_checkpoint's privileges. The role came with PostgreSQL 15; an older
   * server (which pgknob refuses to tune, and `target` still describes) has none to grant, so a
   * superuser is what it asks there, and the role is not named.
   */
  private static boolean hasPgCheckpoint(Connection conn) throws SQLException {
    return versionNum(conn) < 150000 || single(conn, HAS_PG_CHECKPOINT).equals("t");
  }

  private static final String HAS_PG_CHECKPOINT =
      "SELECT pg_catalog.pg_has_role('pg_checkpoint', 'USAGE')";

  private static final String ROLE_CREATEDB =
      "SELECT rolcreatedb FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=)"
          + " current_user";

  /** One line for people: superuser, or which privileges the role has. */
  public static String describe(Connection conn, List<ServerSetting> settings) throws SQLException {
    if (isSuperuser(conn)) {
      return "superuser " + currentUser(conn) + ": may change every setting and reload";
    }
    List<String> changeable =
        settings.stream().filter(s -> !s.isFixed()).map(ServerSetting::name).toList();
    List<String> missing = missingGrants(conn, changeable);
    long lacking = missing.stream().filter(g -> g.startsWith("GRANT ALTER SYSTEM")).count();
    return "role "
        + currentUser(conn)
        + " (not a superuser): ALTER SYSTEM on "
        + (changeable.size() - lacking)
        + " of "
        + changeable.size()
        + " settings"
        + (missing.stream().anyMatch(g -> g.contains("pg_reload_conf"))
            ? ", may NOT reload"
            : ", may reload")
        + lacks(conn, missing)
        // what a TPROC-C or pgbench session needs too (requireForSession)
        + (single(conn, ROLE_CREATEDB).equals("t") ? "" : ", may NOT create databases");
  }

  /** ", lacks pg_read_all_settings and pg_checkpoint": the predefined roles it is not in. */
  private static String lacks(Connection conn, List<String> missing) throws SQLException {
    List<String> roles = new ArrayList<>();
    if (missing.stream().anyMatch(g -> g.contains("pg_read_all_settings"))) {
      roles.add("pg_read_all_settings");
    }
    if (!hasPgCheckpoint(conn)) {
      roles.add("pg_checkpoint");
    }
    return roles.isEmpty() ? "" : ", lacks " + String.join(" and ", roles);
  }

  /** Whether the connected role is a superuser: it needs no privilege pgknob could list. */
  public static boolean isSuperuser(Connection conn) throws SQLException {
    return "on".equals(single(conn, "SELECT current_setting('is_superuser')"));
  }

  private static String currentUser(Connection conn) throws SQLException {
    return single(conn, "SELECT current_user");
  }

  private static int versionNum(Connection conn) throws SQLException {
    return Integer.parseInt(single(conn, "SELECT current_setting('server_version_num')"));
  }

  private static String single(Connection conn, String sql) throws SQLException {
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
