package org.pgknob.workload.tprocc;

/**
 * TPROC-C's five business transactions, named as HammerDB's time profile names them, with TPC-C's
 * keying and mean thinking times (clause 5.2.5).
 */
public enum TransactionType {
  NEW_ORDER("neword", 18, 12),
  PAYMENT("payment", 3, 12),
  DELIVERY("delivery", 2, 10),
  STOCK_LEVEL("slev", 2, 5),
  ORDER_STATUS("ostat", 2, 5);

  private final String label;
  private final int keyingSeconds;
  private final int meanThinkSeconds;

  TransactionType(String label, int keyingSeconds, int meanThinkSeconds) {
    this.label = label;
    this.keyingSeconds = keyingSeconds;
    this.meanThinkSeconds = meanThinkSeconds;
  }

  /** HammerDB's name: neword, payment, delivery, slev, ostat. */
  public String label() {
    return label;
  }

  public long keyingMillis() {
    return keyingSeconds * 1000L;
  }

  /**
   * A thinking time: |ln(u)| times the mean, with u uniform in (0, 1]; capped at ten times the
   * mean, as TPC-C allows.
   */
  public long thinkingMillis(double uniform) {
    double u = Math.max(uniform, 1e-12);
    return (long) (Math.min(-Math.log(u), 10.0) * meanThinkSeconds * 1000);
  }

  /**
   * HammerDB's mix from a draw in 1..23: 1-10 new order, 11-20 payment, 21 delivery, 22 stock
   * level, 23 order status.
   */
  public static TransactionType forDraw(int draw) {
    if (draw < 1 || draw > 23) {
      throw new IllegalArgumentException("a draw must be in 1..23, got " + draw);
    }
    if (draw <= 10) {
      return NEW_ORDER;
    }
    if (draw <= 20) {
      return PAYMENT;
    }
    return switch (draw) {
      case 21 -> DELIVERY;
      case 22 -> STOCK_LEVEL;
      default -> ORDER_STATUS;
    };
  }

  /** The next transaction of HammerDB's mix. */
  public static TransactionType next(TpccRandom random) {
    return forDraw(random.uniform(1, 23));
  }
}
