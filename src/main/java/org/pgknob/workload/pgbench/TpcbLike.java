package org.pgknob.workload.pgbench;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

/** pgbench's "tpcb-like" script: five statements between BEGIN and END, seven round trips. */
final class TpcbLike implements PgbenchTransaction {
  static final String UPDATE_ACCOUNT =
      """
      UPDATE pgbench_accounts SET abalance = abalance + %d WHERE aid = %d""";
  static final String SELECT_BALANCE =
      """
      SELECT abalance FROM pgbench_accounts WHERE aid = %d""";
  static final String UPDATE_TELLER =
      """
      UPDATE pgbench_tellers SET tbalance = tbalance + %d WHERE tid = %d""";
  static final String UPDATE_BRANCH =
      """
      UPDATE pgbench_branches SET bbalance = bbalance + %d WHERE bid = %d""";
  static final String INSERT_HISTORY =
      """
      INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) \
      VALUES (%d, %d, %d, %d, CURRENT_TIMESTAMP)""";

  private static final SqlTemplate UPDATE_ACCOUNT_SQL = SqlTemplate.of(UPDATE_ACCOUNT);
  private static final SqlTemplate SELECT_BALANCE_SQL = SqlTemplate.of(SELECT_BALANCE);
  private static final SqlTemplate UPDATE_TELLER_SQL = SqlTemplate.of(UPDATE_TELLER);
  private static final SqlTemplate UPDATE_BRANCH_SQL = SqlTemplate.of(UPDATE_BRANCH);
  private static final SqlTemplate INSERT_HISTORY_SQL = SqlTemplate.of(INSERT_HISTORY);

  private final int scale;

  TpcbLike(int scale) {
    this.scale = scale;
  }

  @Override
  public void execute(Statement st, SplittableRandom random) throws SQLException {
    int aid = PgbenchTransaction.random(random, 1, ACCOUNTS_PER_SCALE * scale);
    int bid = PgbenchTransaction.random(random, 1, scale);
    int tid = PgbenchTransaction.random(random, 1, TELLERS_PER_SCALE * scale);
    int delta = PgbenchTransaction.random(random, -5000, 5000);
    st.execute("BEGIN");
    st.executeUpdate(UPDATE_ACCOUNT_SQL.fill(delta, aid));
    st.executeQuery(SELECT_BALANCE_SQL.fill(aid)).close();
    st.executeUpdate(UPDATE_TELLER_SQL.fill(delta, tid));
    st.executeUpdate(UPDATE_BRANCH_SQL.fill(delta, bid));
    st.executeUpdate(INSERT_HISTORY_SQL.fill(tid, bid, aid, delta));
    st.execute("END");
  }
}
