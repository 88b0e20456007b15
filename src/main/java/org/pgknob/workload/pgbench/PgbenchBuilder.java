package org.pgknob.workload.pgbench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.pgknob.server.Target;
import org.pgknob.workload.BuildFailure;
import org.pgknob.workload.DatabaseMark;
import org.pgknob.workload.MarkedDatabases;
import org.pgknob.workload.Progress;

/**
 * Builds pgbench's database as {@code pgbench -i -s SCALE} does (tables, data generated on the
 * server, VACUUM ANALYZE, primary keys) into a pristine copy, and copies it to the live database.
 * Nothing is built when a finished pristine copy of this scale is there.
 */
final class PgbenchBuilder {
  static final List<String> TABLES =
      List.of("pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history");
  // Branches and tellers leave filler NULL and accounts get '' (blank-padded to char(84)), as
  // pgbench -i writes them: a branch row with an 88-character filler is 3 times as wide, and the
  // branches' few hot rows, updated by every transaction, fill their pages 3 times as fast.
  static final String BRANCHES =
      """
      INSERT INTO pgbench_branches (bid, bbalance) \
      SELECT bid, 0 FROM generate_series(1, %d) bid""";
  static final String TELLERS =
      """
      INSERT INTO pgbench_tellers (tid, bid, tbalance) \
      SELECT tid, (tid - 1) / 10 + 1, 0 FROM generate_series(1, %d) tid""";
  static final String ACCOUNTS =
      """
      INSERT INTO pgbench_accounts (aid, bid, abalance, filler) \
      SELECT aid, (aid - 1) / 100000 + 1, 0, '' FROM generate_series(%d, %d) aid""";
  static final List<String> KEYS =
      List.of(
          "ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)",
          "ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)",
          "ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)");

  private final Target target;
  private final PgbenchSpec spec;

  PgbenchBuilder(Target target, PgbenchSpec spec) {
    this.target = target;
    this.spec = spec;
  }

  /** Builds unless a finished build is there; then copies the live database if it is missing. */
  void build(Progress progress) {
    try (Connection admin = target.connect(MarkedDatabases.MAINTENANCE_DATABASE)) {
      MarkedDatabases dbs = PgbenchMarks.on(admin);
      Optional<DatabaseMark> pristine = dbs.mark(spec.pristineDatabase());
      Optional<DatabaseMark> live = dbs.mark(spec.database());
      if (pristine.isEmpty() || !pristine.get().isFinished(DatabaseMark.Role.PRISTINE)) {
        buildPristine(dbs, progress);
      } else if (live.isPresent() && live.get().isFinished(DatabaseMark.Role.LIVE)) {
        return;
      }
      progress.begin("copy " + spec.pristineDatabase() + " to " + spec.database(), 0, "");
      dbs.resetFromPristine(spec.database());
      progress.end();
    } catch (SQLException e) {
      throw BuildFailure.of(
          "building the pgbench database",
          e,
          "check the server's log and free disk space (about 15 MB per unit of --scale, twice)");
    }
  }

  private void buildPristine(MarkedDatabases dbs, Progress progress) throws SQLException {
    String pristine = spec.pristineDatabase();
    int scale = spec.scale();
    dbs.dropIfOurs(spec.database());
    dbs.dropIfOurs(pristine);
    dbs.createMarked(pristine, PgbenchMarks.FORMAT.building());
    try (Connection c = target.connect(pristine);
        Statement st = c.createStatement()) {
      st.execute(tablesSql());
      long accounts = (long) scale * PgbenchTransaction.ACCOUNTS_PER_SCALE;
      progress.begin("generate scale " + scale, accounts, "accounts");
      st.execute(BRANCHES.formatted(scale));
      st.execute(TELLERS.formatted(scale * PgbenchTransaction.TELLERS_PER_SCALE));
      for (int s = 0; s < scale; s++) {
        int first = s * PgbenchTransaction.ACCOUNTS_PER_SCALE + 1;
        st.execute(ACCOUNTS.formatted(first, first + PgbenchTransaction.ACCOUNTS_PER_SCALE - 1));
        progress.advance(PgbenchTransaction.ACCOUNTS_PER_SCALE);
      }
      progress.end();
      progress.begin("vacuum analyze", TABLES.size(), "tables");
      for (String table : TABLES) {
        st.execute("VACUUM (ANALYZE) " + table);
        progress.advance(1);
      }
      progress.end();
      progress.begin("primary keys", KEYS.size(), "keys");
      for (String key : KEYS) {
        st.execute(key);
        progress.advance(1);
      }
      progress.end();
    }
    dbs.setMark(pristine, PgbenchMarks.FORMAT.pristine(scale));
    dbs.closeToConnections(pristine);
  }

  static String tablesSql() {
    try (InputStream in = PgbenchBuilder.class.getResourceAsStream("/pgbench/tables.sql")) {
      if (in == null) {
        throw new IllegalStateException("resource /pgbench/tables.sql is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
