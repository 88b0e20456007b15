package org.pgknob.workload.pgbench;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

/** pgbench's "select-only" script: one account's balance, one round trip. */
final class SelectOnly implements PgbenchTransaction {
  static final String SELECT_BALANCE =
      """
      SELECT abalance FROM pgbench_accounts WHERE aid = %d""";

  private static final SqlTemplate SELECT_BALANCE_SQL = SqlTemplate.of(SELECT_BALANCE);

  private final int scale;

  SelectOnly(int scale) {
    this.scale = scale;
  }

  @Override
  public void execute(Statement st, SplittableRandom random) throws SQLException {
    int aid = PgbenchTransaction.random(random, 1, ACCOUNTS_PER_SCALE * scale);
    try (ResultSet rs = st.executeQuery(SELECT_BALANCE_SQL.fill(aid))) {
      rs.next();
    }
  }
}
