package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.pgknob.server.Target;
import org.pgknob.workload.Progress;

/**
 * Loads TPC-C's initial data (clause 4.3.3.1) into empty tables with COPY: the item table once,
 * then each warehouse with its districts, stock, customers, history, orders, order lines and new
 * orders. Warehouses load in parallel, one connection per thread.
 */
final class TproccLoader {
  static final int ITEMS = 100_000;
  static final int DISTRICTS = 10;
  static final int CUSTOMERS_PER_DISTRICT = 3000;
  static final int ORDERS_PER_DISTRICT = 3000;
  static final int FIRST_UNDELIVERED_ORDER = 2101;

  /** Rows of one warehouse, with 10 order lines per order on average (for progress only). */
  static final long ROWS_PER_WAREHOUSE =
      1
          + DISTRICTS
          + ITEMS
          + DISTRICTS
              * (CUSTOMERS_PER_DISTRICT * 2L
                  + ORDERS_PER_DISTRICT * 11L
                  + (ORDERS_PER_DISTRICT - FIRST_UNDELIVERED_ORDER + 1));

  private final Target target;
  private final String database;
  private final int warehouses;
  private final int threads;
  private final String now = OffsetDateTime.now().toString();

  TproccLoader(Target target, String database, int warehouses, int threads) {
    this.target = target;
    this.database = database;
    this.warehouses = warehouses;
    this.threads = Math.max(1, Math.min(threads, warehouses));
  }

  static long totalRows(int warehouses) {
    return ITEMS + warehouses * ROWS_PER_WAREHOUSE;
  }

  /** Loads every table; rows written are reported to {@code progress} as they are sent. */
  void load(Progress progress) throws SQLException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      tasks.add(pool.submit(() -> withConnection(c -> loadItems(c, progress))));
      for (int w = 1; w <= warehouses; w++) {
        int warehouse = w;
        tasks.add(
            pool.submit(
                () -> withConnection(c -> loadWarehouse(c, warehouse, progress, warehouse))));
      }
      for (Future<?> task : tasks) {
        try {
          task.get();
        } catch (ExecutionException e) {
          for (Future<?> other : tasks) {
            other.cancel(true);
          }
          Throwable cause = e.getCause();
          if (cause instanceof SQLException sql) {
            throw sql;
          }
          if (cause instanceof RuntimeException runtime) {
            throw runtime;
          }
          throw new IllegalStateException(cause);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private interface Load {
    void into(Connection connection) throws SQLException;
  }

  private Void withConnection(Load load) throws SQLException {
    try (Connection c = target.connect(database);
        Statement st = c.createStatement()) {
      // The build is not done until the database is marked so; a crash means a rebuild anyway.
      st.execute("SET synchronous_commit = off");
      load.into(c);
    }
    return null;
  }

  private void loadItems(Connection c, Progress progress) throws SQLException {
    TpccRandom r = new TpccRandom(1);
    try (CopyRows rows = new CopyRows(c, "item", progress::advance)) {
      for (int i = 1; i <= ITEMS; i++) {
        rows.add(i)
            .add(r.uniform(1, 10_000))
            .add(r.alpha(14, 24))
            .addDecimal(r.uniform(100, 10_000), 2)
            .add(r.data())
            .endRow();
      }
    }
  }

  private void loadWarehouse(Connection c, int w, Progress progress, long seed)
      throws SQLException {
    TpccRandom r = new TpccRandom(seed * 7919);
    try (CopyRows rows = new CopyRows(c, "warehouse", progress::advance)) {
      rows.add(w).add(r.alpha(6, 10));
      address(rows, r);
      rows.addDecimal(r.uniform(0, 2000), 4).addDecimal(30_000_000, 2).endRow();
    }
    try (CopyRows rows = new CopyRows(c, "district", progress::advance)) {
      for (int d = 1; d <= DISTRICTS; d++) {
        rows.add(d).add(w).add(r.alpha(6, 10));
        address(rows, r);
        rows.addDecimal(r.uniform(0, 2000), 4)
            .addDecimal(3_000_000, 2)
            .add(ORDERS_PER_DISTRICT + 1)
            .endRow();
      }
    }
    loadStock(c, w, r, progress);
    loadCustomersAndHistory(c, w, r, progress);
    loadOrders(c, w, r, progress);
  }

  private static void address(CopyRows rows, TpccRandom r) {
    rows.add(r.alpha(10, 20))
        .add(r.alpha(10, 20))
        .add(r.alpha(10, 20))
        .add(r.alpha(2, 2))
        .add(r.zip());
  }

  private void loadStock(Connection c, int w, TpccRandom r, Progress progress) throws SQLException {
    try (CopyRows rows = new CopyRows(c, "stock", progress::advance)) {
      for (int i = 1; i <= ITEMS; i++) {
        rows.add(i).add(w).add(r.uniform(10, 100));
        for (int d = 1; d <= DISTRICTS; d++) {
          rows.add(r.alpha(24, 24));
        }
        rows.add(0).add(0).add(0).add(r.data()).endRow();
      }
    }
  }

  private void loadCustomersAndHistory(Connection c, int w, TpccRandom r, Progress progress)
      throws SQLException {
    try (CopyRows rows = new CopyRows(c, "customer", progress::advance)) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int id = 1; id <= CUSTOMERS_PER_DISTRICT; id++) {
          int nameNumber = id <= 1000 ? id - 1 : r.lastNameNumberForLoad();
          rows.add(id).add(d).add(w).add(r.alpha(8, 16)).add("OE");
          rows.add(TpccRandom.lastName(nameNumber));
          address(rows, r);
          rows.add(r.digits(16))
              .add(now)
              .add(r.uniform(1, 10) == 1 ? "BC" : "GC")
              .addDecimal(5_000_000, 2)
              .addDecimal(r.uniform(0, 5000), 4)
              .addDecimal(-1000, 2)
              .addDecimal(1000, 2)
              .add(1)
              .add(0)
              .add(r.alpha(300, 500))
              .endRow();
        }
      }
    }
    try (CopyRows rows = new CopyRows(c, "history", progress::advance)) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int id = 1; id <= CUSTOMERS_PER_DISTRICT; id++) {
          rows.add(id).add(d).add(w).add(d).add(w).add(now).addDecimal(1000, 2);
          rows.add(r.alpha(12, 24)).endRow();
        }
      }
    }
  }

  private void loadOrders(Connection c, int w, TpccRandom r, Progress progress)
      throws SQLException {
    int[][] lineCounts = new int[DISTRICTS + 1][ORDERS_PER_DISTRICT + 1];
    try (CopyRows rows = new CopyRows(c, "orders", progress::advance)) {
      for (int d = 1; d <= DISTRICTS; d++) {
        int[] customers = r.permutation(CUSTOMERS_PER_DISTRICT);
        for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
          int lines = r.uniform(5, 15);
          lineCounts[d][o] = lines;
          rows.add(o).add(w).add(d).add(customers[o - 1]);
          if (o < FIRST_UNDELIVERED_ORDER) {
            rows.add(r.uniform(1, 10));
          } else {
            rows.addNull();
          }
          rows.add(lines).add(1).add(now).endRow();
        }
      }
    }
    try (CopyRows rows = new CopyRows(c, "order_line", progress::advance)) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
          boolean delivered = o < FIRST_UNDELIVERED_ORDER;
          for (int n = 1; n <= lineCounts[d][o]; n++) {
            rows.add(w).add(d).add(o).add(n).add(r.uniform(1, ITEMS));
            if (delivered) {
              rows.add(now).addDecimal(0, 2);
            } else {
              rows.addNull().addDecimal(r.uniform(1, 999_999), 2);
            }
            rows.add(w).add(5).add(r.alpha(24, 24)).endRow();
          }
        }
      }
    }
    try (CopyRows rows = new CopyRows(c, "new_order", progress::advance)) {
      for (int d = 1; d <= DISTRICTS; d++) {
        for (int o = FIRST_UNDELIVERED_ORDER; o <= ORDERS_PER_DISTRICT; o++) {
          rows.add(w).add(d).add(o).endRow();
        }
      }
    }
  }
}
