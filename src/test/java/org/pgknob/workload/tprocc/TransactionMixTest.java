package org.pgknob.workload.tprocc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionMixTest {
  @Test
  void mapsDrawsToHammerDbsMix() {
    assertEquals(TransactionType.NEW_ORDER, TransactionType.forDraw(1));
    assertEquals(TransactionType.NEW_ORDER, TransactionType.forDraw(10));
    assertEquals(TransactionType.PAYMENT, TransactionType.forDraw(11));
    assertEquals(TransactionType.PAYMENT, TransactionType.forDraw(20));
    assertEquals(TransactionType.DELIVERY, TransactionType.forDraw(21));
    assertEquals(TransactionType.STOCK_LEVEL, TransactionType.forDraw(22));
    assertEquals(TransactionType.ORDER_STATUS, TransactionType.forDraw(23));
    assertThrows(IllegalArgumentException.class, () -> TransactionType.forDraw(0));
    assertThrows(IllegalArgumentException.class, () -> TransactionType.forDraw(24));
  }

  @Test
  void drawsTheMixWithinTolerance() {
    TpccRandom random = new TpccRandom(11);
    Map<TransactionType, Integer> counts = new EnumMap<>(TransactionType.class);
    int draws = 23_000;
    for (int i = 0; i < draws; i++) {
      counts.merge(TransactionType.next(random), 1, Integer::sum);
    }
    assertNear(counts.get(TransactionType.NEW_ORDER), draws * 10 / 23.0);
    assertNear(counts.get(TransactionType.PAYMENT), draws * 10 / 23.0);
    assertNear(counts.get(TransactionType.DELIVERY), draws / 23.0);
    assertNear(counts.get(TransactionType.STOCK_LEVEL), draws / 23.0);
    assertNear(counts.get(TransactionType.ORDER_STATUS), draws / 23.0);
  }

  @Test
  void thinkingTimesAverageTpccsMeanAndAreCapped() {
    TpccRandom random = new TpccRandom(3);
    double sum = 0;
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      sum += TransactionType.STOCK_LEVEL.thinkingMillis(random.nextDouble());
    }
    assertEquals(5000, sum / n, 150);
    assertEquals(50_000, TransactionType.NEW_ORDER.thinkingMillis(0.0) / 12 * 5);
    assertEquals(18_000, TransactionType.NEW_ORDER.keyingMillis());
  }

  /** Within 5 standard deviations of a binomial count. */
  private static void assertNear(int count, double expected) {
    double sd = Math.sqrt(expected);
    assertTrue(
        Math.abs(count - expected) < 5 * sd, "count " + count + ", expected about " + expected);
  }
}
