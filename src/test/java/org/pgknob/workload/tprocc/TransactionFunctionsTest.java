package org.pgknob.workload.tprocc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each transaction function against figures computed by hand from the tables. */
class TransactionFunctionsTest {
  private static Connection connection;
  private static TransactionCalls calls;

  @BeforeAll
  static void open() throws SQLException {
    TproccTestDatabase.reset();
    connection = TproccTestDatabase.connect();
    calls = new TransactionCalls(connection, new TpccRandom(42), 1, 4);
  }

  @AfterAll
  static void close() throws SQLException {
    calls.close();
    TproccTestDatabase.reset();
  }

  @Test
  void newOrderAddsTheOrderItsLinesAndUpdatesStock() throws SQLException {
    int district = 2;
    int customer = 17;
    long nextId = value("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 2");
    long stockBefore = value("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 50");
    long stock2Before = value("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 60");
    Integer[] items = {50, 60};
    Integer[] supplies = {1, 1};
    Integer[] quantities = {3, 7};

    int orderId = calls.callNewOrder(1, district, customer, items, supplies, quantities);

    assertEquals(nextId, orderId);
    assertEquals(
        nextId + 1, value("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 2"));
    assertEquals(
        customer,
        value("SELECT o_c_id FROM orders WHERE o_w_id = 1 AND o_d_id = 2 AND o_id = " + orderId));
    assertEquals(
        1,
        value(
            "SELECT count(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 2 AND no_o_id = "
                + orderId));
    assertEquals(
        2,
        value(
            "SELECT count(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = "
                + orderId));
    assertEquals(
        expectedStock(stockBefore, 3),
        value("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 50"));
    assertEquals(
        expectedStock(stock2Before, 7),
        value("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 60"));
    BigDecimal lines =
        decimal(
            "SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2"
                + " AND ol_o_id = "
                + orderId);
    BigDecimal priced =
        decimal(
            "SELECT 3 * (SELECT i_price FROM item WHERE i_id = 50)"
                + " + 7 * (SELECT i_price FROM item WHERE i_id = 60)");
    assertEquals(0, priced.compareTo(lines));
  }

  @Test
  void newOrderWithAnInvalidItemRollsBackEverything() throws SQLException {
    long nextId = value("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 5");
    long orders = value("SELECT count(*) FROM orders");
    long stock = value("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 70");
    SQLException e =
        assertThrows(
            SQLException.class,
            () ->
                calls.callNewOrder(
                    1,
                    5,
                    9,
                    new Integer[] {70, TransactionCalls.INVALID_ITEM},
                    new Integer[] {1, 1},
                    new Integer[] {4, 4}));
    assertEquals(TransactionCalls.BUSINESS_ROLLBACK, e.getSQLState());
    assertEquals(nextId, value("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 5"));
    assertEquals(orders, value("SELECT count(*) FROM orders"));
    assertEquals(stock, value("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 70"));
  }

  @Test
  void aBusinessRollbackCountsAsARollbackNotAnError() throws SQLException {
    // 1% of drawn new orders carry the invalid item: over enough calls some roll back.
    TransactionCalls drawn = new TransactionCalls(connection, new TpccRandom(7), 1, 1);
    int rolledBack = 0;
    for (int i = 0; i < 600; i++) {
      if (!drawn.call(TransactionType.NEW_ORDER, 1)) {
        rolledBack++;
      }
    }
    assertTrue(rolledBack >= 1 && rolledBack <= 20, "rolled back: " + rolledBack);
  }

  @Test
  void paymentByIdMovesTheAmountEverywhere() throws SQLException {
    BigDecimal wYtd = decimal("SELECT w_ytd FROM warehouse WHERE w_id = 1");
    BigDecimal dYtd = decimal("SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 3");
    BigDecimal balance =
        decimal("SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 6 AND c_id = 123");
    long history = value("SELECT count(*) FROM history");
    BigDecimal amount = new BigDecimal("250.75");

    int customer = calls.callPayment(1, 3, 1, 6, 123, null, amount);

    assertEquals(123, customer);
    assertEquals(0, wYtd.add(amount).compareTo(decimal("SELECT w_ytd FROM warehouse")));
    assertEquals(
        0,
        dYtd.add(amount)
            .compareTo(decimal("SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 3")));
    assertEquals(
        0,
        balance
            .subtract(amount)
            .compareTo(
                decimal(
                    "SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 6 AND c_id = 123")));
    assertEquals(history + 1, value("SELECT count(*) FROM history"));
  }

  @Test
  void paymentByLastNameTakesTheMiddleCustomerByFirstName() throws SQLException {
    String name = TpccRandom.lastName(371);
    List<Integer> matches = customersNamed(name, 4);
    assertTrue(matches.size() >= 2, "customers named " + name + ": " + matches.size());
    int expected = matches.get((matches.size() + 1) / 2 - 1);

    int customer = calls.callPayment(1, 4, 1, 4, 0, name, new BigDecimal("10.00"));

    assertEquals(expected, customer);
    assertEquals(
        2,
        value(
            "SELECT c_payment_cnt FROM customer WHERE c_w_id = 1 AND c_d_id = 4 AND c_id = "
                + expected));
  }

  @Test
  void orderStatusFindsTheCustomersLatestOrderByNameAndById() throws SQLException {
    String name = TpccRandom.lastName(42);
    List<Integer> matches = customersNamed(name, 7);
    int expected = matches.get((matches.size() + 1) / 2 - 1);
    int[] byName = calls.callOrderStatus(1, 7, 0, name);
    assertEquals(expected, byName[0]);
    assertEquals(
        value(
            "SELECT max(o_id) FROM orders WHERE o_w_id = 1 AND o_d_id = 7 AND o_c_id = "
                + expected),
        byName[1]);
    assertEquals(
        value(
            "SELECT o_ol_cnt FROM orders WHERE o_w_id = 1 AND o_d_id = 7 AND o_id = " + byName[1]),
        byName[2]);

    int[] byId = calls.callOrderStatus(1, 7, 2500, null);
    assertEquals(2500, byId[0]);
    assertEquals(
        value("SELECT max(o_id) FROM orders WHERE o_w_id = 1 AND o_d_id = 7 AND o_c_id = 2500"),
        byId[1]);
  }

  @Test
  void deliveryDeliversTheOldestOrderOfEveryDistrict() throws SQLException {
    long oldest = value("SELECT min(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 8");
    long customer =
        value("SELECT o_c_id FROM orders WHERE o_w_id = 1 AND o_d_id = 8 AND o_id = " + oldest);
    BigDecimal total =
        decimal(
            "SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = 1"
                + " AND ol_d_id = 8 AND ol_o_id = "
                + oldest);
    BigDecimal balance =
        decimal(
            "SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 8"
                + " AND c_id = "
                + customer);
    long undelivered = value("SELECT count(*) FROM new_order");

    assertEquals(10, calls.callDelivery(1, 6));

    assertEquals(undelivered - 10, value("SELECT count(*) FROM new_order"));
    assertEquals(
        oldest + 1, value("SELECT min(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 8"));
    assertEquals(
        6,
        value(
            "SELECT o_carrier_id FROM orders WHERE o_w_id = 1 AND o_d_id = 8 AND o_id = "
                + oldest));
    assertEquals(
        0,
        value(
            "SELECT count(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 8 AND ol_o_id = "
                + oldest
                + " AND ol_delivery_d IS NULL"));
    assertEquals(
        0,
        balance
            .add(total)
            .compareTo(
                decimal(
                    "SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 8 AND c_id = "
                        + customer)));
  }

  @Test
  void stockLevelCountsDistinctLowStockItemsOfTheLastTwentyOrders() throws SQLException {
    long expected =
        value(
            "SELECT count(DISTINCT s_i_id) FROM order_line, stock, district"
                + " WHERE d_w_id = 1 AND d_id = 9 AND ol_w_id = 1 AND ol_d_id = 9"
                + " AND ol_o_id >= d_next_o_id - 20 AND ol_o_id < d_next_o_id"
                + " AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 60");
    assertTrue(expected > 0, "a threshold of 60 finds low stock among ~200 lines");
    assertEquals(expected, calls.callStockLevel(1, 9, 60));
    assertEquals(countBelow(15), calls.callStockLevel(1, 9, 15));
  }

  @Test
  void transactionsKeepTheConsistencyConditions() throws SQLException {
    TransactionCalls drawn = new TransactionCalls(connection, new TpccRandom(3), 1, 2);
    TpccRandom mix = new TpccRandom(5);
    for (int i = 0; i < 300; i++) {
      drawn.call(TransactionType.next(mix), 1);
    }
    for (ConsistencyCheck.Condition condition : ConsistencyCheck.run(connection)) {
      assertTrue(condition.holds(), condition.rule());
    }
    assertFalse(ConsistencyCheck.run(connection).isEmpty());
  }

  private static long countBelow(int threshold) throws SQLException {
    return value(
        "SELECT count(DISTINCT s_i_id) FROM order_line, stock, district"
            + " WHERE d_w_id = 1 AND d_id = 9 AND ol_w_id = 1 AND ol_d_id = 9"
            + " AND ol_o_id >= d_next_o_id - 20 AND ol_o_id < d_next_o_id"
            + " AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < "
            + threshold);
  }

  private static long expectedStock(long before, int quantity) {
    return before >= quantity + 10 ? before - quantity : before - quantity + 91;
  }

  /** Customers of a district with that last name, in c_first (then c_id) order. */
  private static List<Integer> customersNamed(String name, int district) throws SQLException {
    List<Integer> out = new ArrayList<>();
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT c_id, c_first FROM customer WHERE c_w_id = 1 AND c_d_id = ? AND c_last = ?")) {
      ps.setInt(1, district);
      ps.setString(2, name);
      List<String[]> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new String[] {rs.getString(2), Integer.toString(rs.getInt(1))});
        }
      }
      // Sorted here, in Java, by the rule itself rather than by the SQL under test. The database
      // has no locale (C collation), which compares like String.compareTo for ASCII.
      rows.sort(
          (a, b) ->
              a[0].equals(b[0])
                  ? Integer.compare(Integer.parseInt(a[1]), Integer.parseInt(b[1]))
                  : a[0].compareTo(b[0]));
      for (String[] row : rows) {
        out.add(Integer.parseInt(row[1]));
      }
    }
    return out;
  }

  private static long value(String sql) throws SQLException {
    return TproccTestDatabase.queryLong(connection, sql);
  }

  private static BigDecimal decimal(String sql) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getBigDecimal(1).setScale(2, RoundingMode.UNNECESSARY);
    }
  }
}
