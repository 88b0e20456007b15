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
    st.executeUpdate(UPDATE_ACCOUNT.formatted(delta, aid));
    st.executeQuery(SELECT_BALANCE.formatted(aid)).close();
    st.executeUpdate(UPDATE_TELLER.formatted(delta, tid));
    st.executeUpdate(UPDATE_BRANCH.formatted(delta, bid));
    st.executeUpdate(INSERT_HISTORY.formatted(tid, bid, aid, delta));
    st.execute("END");
  }
}
