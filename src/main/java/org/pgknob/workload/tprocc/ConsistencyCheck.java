package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * TPC-C's consistency conditions 1 to 4 (clause 3.3.2), which hold after the build and after any
 * number of correct transactions. Each query counts the warehouses or districts that break one.
 */
public final class ConsistencyCheck {
  /** One condition's verdict: how many warehouses or districts break it. */
  public record Condition(int number, String rule, long violations) {
    public boolean holds() {
      return violations == 0;
    }
  }

  private static final List<String[]> CONDITIONS =
      List.of(
          new String[] {
            "w_ytd = sum(d_ytd) for each warehouse",
            "SELECT count(*) FROM warehouse w WHERE w.w_ytd IS DISTINCT FROM"
                + " (SELECT sum(d_ytd) FROM district WHERE d_w_id = w.w_id)"
          },
          new String[] {
            "d_next_o_id - 1 = max(o_id) = max(no_o_id) for each district",
            "SELECT count(*) FROM district d WHERE d.d_next_o_id - 1 IS DISTINCT FROM"
                + " (SELECT max(o_id) FROM orders WHERE o_w_id = d.d_w_id AND o_d_id = d.d_id)"
                + " OR d.d_next_o_id - 1 IS DISTINCT FROM (SELECT max(no_o_id) FROM new_order"
                + " WHERE no_w_id = d.d_w_id AND no_d_id = d.d_id)"
          },
          new String[] {
            "max(no_o_id) - min(no_o_id) + 1 = count(new_order) for each district",
            "SELECT count(*) FROM (SELECT max(no_o_id) - min(no_o_id) + 1 AS span, count(*) AS n"
                + " FROM new_order GROUP BY no_w_id, no_d_id) x WHERE span <> n"
          },
          new String[] {
            "sum(o_ol_cnt) = count(order_line) for each district",
            "SELECT count(*) FROM (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS lines FROM orders"
                + " GROUP BY o_w_id, o_d_id) o FULL JOIN (SELECT ol_w_id, ol_d_id, count(*) AS n"
                + " FROM order_line GROUP BY ol_w_id, ol_d_id) l"
                + " ON o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id"
                + " WHERE o.lines IS DISTINCT FROM l.n"
          });

  private ConsistencyCheck() {}

  /** Checks the four conditions over a connection to the TPROC-C database. */
  public static List<Condition> run(Connection connection) throws SQLException {
    List<Condition> out = new ArrayList<>();
    try (Statement st = connection.createStatement()) {
      for (int i = 0; i < CONDITIONS.size(); i++) {
        try (ResultSet rs = st.executeQuery(CONDITIONS.get(i)[1])) {
          rs.next();
          out.add(new Condition(i + 1, CONDITIONS.get(i)[0], rs.getLong(1)));
        }
      }
    }
    return out;
  }
}
