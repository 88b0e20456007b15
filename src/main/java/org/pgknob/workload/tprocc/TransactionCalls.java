package org.pgknob.workload.tprocc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;

/**
 * One virtual user's calls of the transaction functions: TPC-C's inputs (clause 2) drawn on the
 * client, one prepared statement per function, one autocommitted round trip per transaction.
 */
final class TransactionCalls implements AutoCloseable {
  /** The SQLSTATE neword raises for an invalid item: the call's transaction rolled back. */
  static final String BUSINESS_ROLLBACK = "TPC01";

  /** An item id that does not exist (TPC-C: an unused value) for the 1% rolled-back orders. */
  static final int INVALID_ITEM = TproccLoader.ITEMS + 1;

  private final Connection connection;
  private final TpccRandom random;
  private final int warehouses;
  private final int stockLevelDistrict;
  private final PreparedStatement newOrder;
  private final PreparedStatement payment;
  private final PreparedStatement orderStatus;
  private final PreparedStatement delivery;
  private final PreparedStatement stockLevel;

  /**
   * @param stockLevelDistrict the district this user's stock-level calls look at (TPC-C: fixed per
   *     terminal)
   */
  TransactionCalls(Connection connection, TpccRandom random, int warehouses, int stockLevelDistrict)
      throws SQLException {
    this.connection = connection;
    this.random = random;
    this.warehouses = warehouses;
    this.stockLevelDistrict = stockLevelDistrict;
    this.newOrder = connection.prepareStatement("SELECT * FROM neword(?, ?, ?, ?, ?, ?)");
    this.payment = connection.prepareStatement("SELECT payment(?, ?, ?, ?, ?, ?, ?)");
    this.orderStatus = connection.prepareStatement("SELECT * FROM ostat(?, ?, ?, ?)");
    this.delivery = connection.prepareStatement("SELECT delivery(?, ?)");
    this.stockLevel = connection.prepareStatement("SELECT slev(?, ?, ?)");
  }

  /**
   * Runs one transaction of {@code type} for home warehouse {@code w}.
   *
   * @return true when it committed, false when it was a business rollback
   * @throws SQLException any other failure
   */
  boolean call(TransactionType type, int w) throws SQLException {
    try {
      switch (type) {
        case NEW_ORDER -> newOrder(w);
        case PAYMENT -> payment(w);
        case ORDER_STATUS -> orderStatus(w);
        case DELIVERY -> delivery(w);
        case STOCK_LEVEL -> stockLevel(w);
      }
      return true;
    } catch (SQLException e) {
      if (BUSINESS_ROLLBACK.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  private void newOrder(int w) throws SQLException {
    int lines = random.uniform(5, 15);
    boolean rollback = random.uniform(1, 100) == 1;
    long[] keys = new long[lines];
    int[] quantities = new int[lines];
    for (int i = 0; i < lines; i++) {
      int item = rollback && i == lines - 1 ? INVALID_ITEM : random.itemId();
      int supply = random.uniform(1, 100) == 1 ? otherWarehouse(w) : w;
      keys[i] = ((long) supply << 32) | item;
      quantities[i] = random.uniform(1, 10);
    }
    // Lines sorted by (supply warehouse, item): concurrent orders lock stock rows in one order.
    Arrays.sort(keys);
    Integer[] items = new Integer[lines];
    Integer[] supplies = new Integer[lines];
    Integer[] amounts = new Integer[lines];
    for (int i = 0; i < lines; i++) {
      items[i] = (int) (keys[i] & 0xffffffffL);
      supplies[i] = (int) (keys[i] >>> 32);
      amounts[i] = quantities[i];
    }
    callNewOrder(w, random.uniform(1, 10), random.customerId(), items, supplies, amounts);
  }

  /** Calls neword with the given lines; returns the new order's id. */
  int callNewOrder(
      int w, int d, int customer, Integer[] items, Integer[] supplies, Integer[] quantities)
      throws SQLException {
    newOrder.setInt(1, w);
    newOrder.setInt(2, d);
    newOrder.setInt(3, customer);
    newOrder.setArray(4, connection.createArrayOf("int4", items));
    newOrder.setArray(5, connection.createArrayOf("int4", supplies));
    newOrder.setArray(6, connection.createArrayOf("int4", quantities));
    try (ResultSet rs = newOrder.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private void payment(int w) throws SQLException {
    int d = random.uniform(1, 10);
    int customerWarehouse = w;
    int customerDistrict = d;
    if (random.uniform(1, 100) > 85) {
      customerWarehouse = otherWarehouse(w);
      customerDistrict = random.uniform(1, 10);
    }
    boolean byName = random.uniform(1, 100) <= 60;
    BigDecimal amount = BigDecimal.valueOf(random.uniform(100, 500_000), 2);
    callPayment(
        w,
        d,
        customerWarehouse,
        customerDistrict,
        byName ? 0 : random.customerId(),
        byName ? TpccRandom.lastName(random.lastNameNumberForRun()) : null,
        amount);
  }

  /** Calls payment; {@code lastName} null means by id. Returns the customer's id. */
  int callPayment(
      int w,
      int d,
      int customerWarehouse,
      int customerDistrict,
      int customer,
      String lastName,
      BigDecimal amount)
      throws SQLException {
    payment.setInt(1, w);
    payment.setInt(2, d);
    payment.setInt(3, customerWarehouse);
    payment.setInt(4, customerDistrict);
    payment.setInt(5, customer);
    if (lastName == null) {
      payment.setNull(6, Types.VARCHAR);
    } else {
      payment.setString(6, lastName);
    }
    payment.setBigDecimal(7, amount);
    try (ResultSet rs = payment.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private void orderStatus(int w) throws SQLException {
    boolean byName = random.uniform(1, 100) <= 60;
    callOrderStatus(
        w,
        random.uniform(1, 10),
        byName ? 0 : random.customerId(),
        byName ? TpccRandom.lastName(random.lastNameNumberForRun()) : null);
  }

  /** Calls ostat; returns {customer id, latest order id, its line count}. */
  int[] callOrderStatus(int w, int d, int customer, String lastName) throws SQLException {
    orderStatus.setInt(1, w);
    orderStatus.setInt(2, d);
    orderStatus.setInt(3, customer);
    if (lastName == null) {
      orderStatus.setNull(4, Types.VARCHAR);
    } else {
      orderStatus.setString(4, lastName);
    }
    try (ResultSet rs = orderStatus.executeQuery()) {
      rs.next();
      return new int[] {rs.getInt("out_c_id"), rs.getInt("out_o_id"), rs.getInt("out_lines")};
    }
  }

  private void delivery(int w) throws SQLException {
    callDelivery(w, random.uniform(1, 10));
  }

  /** Calls delivery; returns how many districts had an order delivered. */
  int callDelivery(int w, int carrier) throws SQLException {
    delivery.setInt(1, w);
    delivery.setInt(2, carrier);
    try (ResultSet rs = delivery.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private void stockLevel(int w) throws SQLException {
    callStockLevel(w, stockLevelDistrict, random.uniform(10, 20));
  }

  /** Calls slev; returns the number of distinct low-stock items. */
  int callStockLevel(int w, int d, int threshold) throws SQLException {
    stockLevel.setInt(1, w);
    stockLevel.setInt(2, d);
    stockLevel.setInt(3, threshold);
    try (ResultSet rs = stockLevel.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** A warehouse other than {@code w} (w itself when there is only one). */
  private int otherWarehouse(int w) {
    if (warehouses == 1) {
      return w;
    }
    int other = random.uniform(1, warehouses - 1);
    return other >= w ? other + 1 : other;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
