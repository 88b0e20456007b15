package org.pgknob.workload.tprocc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.Progress;

class TproccBuildTest {
  @BeforeAll
  static void build() {
    TproccTestDatabase.reset();
  }

  @Test
  void loadsTpccRowCountsForOneWarehouse() throws SQLException {
    try (Connection c = TproccTestDatabase.connect()) {
      assertEquals(100_000, count(c, "item"));
      assertEquals(1, count(c, "warehouse"));
      assertEquals(10, count(c, "district"));
      assertEquals(100_000, count(c, "stock"));
      assertEquals(30_000, count(c, "customer"));
      assertEquals(30_000, count(c, "history"));
      assertEquals(30_000, count(c, "orders"));
      assertEquals(9_000, count(c, "new_order"));
      long lines = count(c, "order_line");
      assertEquals(TproccTestDatabase.queryLong(c, "SELECT sum(o_ol_cnt) FROM orders"), lines);
      assertTrue(lines > 285_000 && lines < 315_000, "about 10 lines per order: " + lines);
      assertEquals(
          30_010, TproccTestDatabase.queryLong(c, "SELECT sum(d_next_o_id) FROM district"));
    }
  }

  @Test
  void leavesTheLast900OrdersOfEachDistrictUndelivered() throws SQLException {
    try (Connection c = TproccTestDatabase.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT no_d_id, count(*), min(no_o_id), max(no_o_id) FROM new_order"
                    + " GROUP BY no_d_id ORDER BY 1")) {
      int districts = 0;
      while (rs.next()) {
        districts++;
        assertEquals(900, rs.getLong(2));
        assertEquals(2101, rs.getInt(3));
        assertEquals(3000, rs.getInt(4));
      }
      assertEquals(10, districts);
      assertEquals(
          0,
          TproccTestDatabase.queryLong(
              c, "SELECT count(*) FROM orders WHERE (o_id < 2101) <> (o_carrier_id IS NOT NULL)"));
      assertEquals(
          0,
          TproccTestDatabase.queryLong(
              c,
              "SELECT count(*) FROM order_line WHERE (ol_o_id < 2101) <> (ol_delivery_d IS NOT"
                  + " NULL)"));
    }
  }

  @Test
  void marksTenPercentOfItemsOriginal() throws SQLException {
    try (Connection c = TproccTestDatabase.connect()) {
      long original =
          TproccTestDatabase.queryLong(
              c, "SELECT count(*) FROM item WHERE i_data LIKE '%ORIGINAL%'");
      assertTrue(original > 9_000 && original < 11_000, "ORIGINAL items: " + original);
      long badCredit =
          TproccTestDatabase.queryLong(c, "SELECT count(*) FROM customer WHERE c_credit = 'BC'");
      assertTrue(badCredit > 2_500 && badCredit < 3_500, "BC customers: " + badCredit);
    }
  }

  @Test
  void namesTheFirstThousandCustomersInOrderAndTheRestByNuRand() throws SQLException {
    try (Connection c = TproccTestDatabase.connect();
        Statement st = c.createStatement()) {
      try (ResultSet rs =
          st.executeQuery(
              "SELECT c_id, c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 3"
                  + " AND c_id <= 1000")) {
        int rows = 0;
        while (rs.next()) {
          rows++;
          assertEquals(TpccRandom.lastName(rs.getInt(1) - 1), rs.getString(2));
        }
        assertEquals(1000, rows);
      }
      Map<String, Integer> byName = new HashMap<>();
      try (ResultSet rs =
          st.executeQuery(
              "SELECT c_last, count(*) FROM customer WHERE c_id > 1000 GROUP BY c_last")) {
        while (rs.next()) {
          byName.put(rs.getString(1), rs.getInt(2));
        }
      }
      // NURand(255, 0, 999) over 20,000 customers per district x 10: most of the 1000 names
      // appear (values with few one bits are rare), and unevenly (a uniform draw would give about
      // 200 each with little spread).
      assertTrue(byName.size() > 800, "distinct names: " + byName.size());
      int max = byName.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      int min = byName.values().stream().mapToInt(Integer::intValue).min().orElse(0);
      assertTrue(max > 3 * min + 50, "NURand is skewed: min " + min + ", max " + max);
      assertTrue(byName.keySet().stream().allMatch(n -> n.matches("[A-Z]+")));
    }
  }

  @Test
  void aFreshBuildMeetsTheConsistencyConditions() throws SQLException {
    try (Connection c = TproccTestDatabase.connect()) {
      for (ConsistencyCheck.Condition condition : ConsistencyCheck.run(c)) {
        assertTrue(condition.holds(), condition.rule());
      }
    }
  }

  @Test
  void buildingAgainWithTheSameSizeKeepsTheExistingBuild() {
    TproccBuilder.BuildReport again =
        new TproccBuilder(SharedPostgres.cluster(), TproccTestDatabase.SETTINGS)
            .build(false, Progress.SILENT);
    assertFalse(again.built());
  }

  @Test
  void refusesAnotherWarehouseCountWithoutRebuild() {
    TproccSettings four = TproccTestDatabase.SETTINGS;
    TproccSettings other =
        new TproccSettings(four.database(), 4, 1, 0, 1, false, false, four.reset(), 30, 1);
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () -> new TproccBuilder(SharedPostgres.cluster(), other).build(false, Progress.SILENT));
    assertTrue(e.getMessage().contains("built with 1 warehouses, not 4"), e.getMessage());
  }

  @Test
  void refusesToBuildIntoOrDropADatabasePgknobDidNotCreate() throws SQLException {
    try (Connection admin = SharedPostgres.connect();
        Statement st = admin.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS users_own");
      st.execute("CREATE DATABASE users_own");
      try {
        TproccSettings settings = TproccTestDatabase.SETTINGS.withDatabase("users_own");
        PgknobException e =
            assertThrows(
                PgknobException.class,
                () ->
                    new TproccBuilder(SharedPostgres.cluster(), settings)
                        .build(true, Progress.SILENT));
        assertTrue(e.getMessage().contains("pgknob did not create it"), e.getMessage());
        assertEquals(
            1,
            TproccTestDatabase.queryLong(
                admin, "SELECT count(*) FROM pg_database WHERE datname = 'users_own'"));
      } finally {
        st.execute("DROP DATABASE users_own");
      }
    }
  }

  @Test
  void refusesASchemaFromAnotherVersion() throws SQLException {
    try (Connection admin = SharedPostgres.connect();
        Statement st = admin.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS old_tprocc_pristine");
      st.execute("CREATE DATABASE old_tprocc_pristine");
      st.execute(
          "COMMENT ON DATABASE old_tprocc_pristine IS 'pgknob tprocc v0 warehouses=1 pristine'");
      try {
        TproccSettings settings = TproccTestDatabase.SETTINGS.withDatabase("old_tprocc");
        PgknobException e =
            assertThrows(
                PgknobException.class,
                () ->
                    new TproccBuilder(SharedPostgres.cluster(), settings)
                        .build(false, Progress.SILENT));
        assertTrue(e.getMessage().contains("another pgknob version (v0"), e.getMessage());
      } finally {
        st.execute("DROP DATABASE old_tprocc_pristine");
      }
    }
  }

  private static long count(Connection c, String table) throws SQLException {
    return TproccTestDatabase.queryLong(c, "SELECT count(*) FROM " + table);
  }
}
