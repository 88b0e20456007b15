package org.pgknob.workload.tprocc;

import java.sql.SQLException;
import org.pgknob.workload.driver.Transaction;

/**
 * One TPROC-C terminal on the closed-loop driver: HammerDB's mix of the five transactions on the
 * user's home warehouse (or one of its set, with all-warehouses), with TPC-C's keying and thinking
 * times when asked.
 */
final class Terminal implements Transaction {
  private static final TransactionType[] TYPES = TransactionType.values();

  private final TransactionCalls calls;
  private final TpccRandom random;
  private final int[] warehouses;
  private final boolean keyAndThink;

  /**
   * @param warehouses the user's warehouses: one (its home) or, with all-warehouses, the set it
   *     picks from before every transaction
   */
  Terminal(TransactionCalls calls, TpccRandom random, int[] warehouses, boolean keyAndThink) {
    this.calls = calls;
    this.random = random;
    this.warehouses = warehouses.clone();
    this.keyAndThink = keyAndThink;
  }

  @Override
  public int nextType() {
    return TransactionType.next(random).ordinal();
  }

  @Override
  public long keyingMillis(int type) {
    return keyAndThink ? TYPES[type].keyingMillis() : 0;
  }

  @Override
  public boolean execute(int type) throws SQLException {
    int w =
        warehouses.length == 1
            ? warehouses[0]
            : warehouses[random.uniform(0, warehouses.length - 1)];
    return calls.call(TYPES[type], w);
  }

  @Override
  public long thinkingMillis(int type) {
    return keyAndThink ? TYPES[type].thinkingMillis(random.nextDouble()) : 0;
  }
}
