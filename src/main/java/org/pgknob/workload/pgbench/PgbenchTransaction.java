package org.pgknob.workload.pgbench;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

/**
 * One of pgbench's built-in scripts, run as pgbench runs it by default: the simple query protocol,
 * one round trip per statement, literal values in the SQL text.
 */
interface PgbenchTransaction {
  /** Runs the script once on {@code statement}'s autocommit connection. */
  void execute(Statement statement, SplittableRandom random) throws SQLException;

  /** pgbench's accounts per unit of scale. */
  int ACCOUNTS_PER_SCALE = 100_000;

  /** pgbench's tellers per unit of scale. */
  int TELLERS_PER_SCALE = 10;

  /** pgbench's random(lo, hi): uniform, both ends included. */
  static int random(SplittableRandom random, int lo, int hi) {
    return random.nextInt(lo, hi + 1);
  }
}
