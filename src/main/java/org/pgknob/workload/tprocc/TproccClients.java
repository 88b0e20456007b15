package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.pgknob.PgknobException;
import org.pgknob.workload.DatabaseMark;
import org.pgknob.workload.MarkedDatabases;
import org.pgknob.workload.driver.Clients;
import org.pgknob.workload.driver.Transaction;

/**
 * TPROC-C's side of a driver run: checks the database is pgknob's finished build of this version,
 * deals the warehouses to the terminals, and reads HammerDB's server counters (pg_stat_database's
 * transactions, sum(d_next_o_id)) at the window's two ends.
 */
final class TproccClients implements Clients {
  private final TproccSettings settings;
  private int warehouses;
  private ServerCounters atStart;
  private ServerCounters atEnd;

  TproccClients(TproccSettings settings) {
    this.settings = settings;
  }

  @Override
  public void check(Connection monitor) throws SQLException {
    MarkedDatabases dbs = TproccMarks.on(monitor);
    String comment = dbs.comment(settings.database()).orElse("");
    DatabaseMark mark =
        TproccMarks.FORMAT
            .parse(comment)
            .orElseThrow(
                () ->
                    new PgknobException(
                        "the database " + settings.database() + " is not pgknob's TPROC-C database",
                        "build one with: pgknob tprocc build --warehouses N (e.g. 2), or choose another --database"));
    dbs.requireCurrentVersion(settings.database(), mark);
    if (mark.role() != DatabaseMark.Role.LIVE) {
      throw new PgknobException(
          "the database " + settings.database() + " is not a finished TPROC-C build",
          "rebuild it with: pgknob tprocc build --rebuild --warehouses N (the size you want, e.g. 2)");
    }
    warehouses = mark.size();
  }

  @Override
  public Transaction open(int index, Connection connection) throws SQLException {
    TpccRandom random = new TpccRandom();
    TransactionCalls calls =
        new TransactionCalls(connection, random, warehouses, random.uniform(1, 10));
    return new Terminal(
        calls,
        random,
        warehousesOf(index, settings.users(), warehouses, settings.allWarehouses()),
        settings.keyAndThink());
  }

  @Override
  public void windowStarted(Connection monitor) throws SQLException {
    atStart = ServerCounters.read(monitor);
  }

  @Override
  public void windowEnded(Connection monitor) throws SQLException {
    atEnd = ServerCounters.read(monitor);
  }

  /** Warehouses the database holds (known once {@link #check} ran). */
  int warehouses() {
    return warehouses;
  }

  /** Server transactions (xact_commit + xact_rollback) over the window. */
  long serverTransactions() {
    return atEnd.transactions() - atStart.transactions();
  }

  /** New orders over the window: the change of sum(d_next_o_id). */
  long serverNewOrders() {
    return atEnd.nextOrderIdSum() - atStart.nextOrderIdSum();
  }

  /**
   * The warehouses user {@code u} works on: its home warehouse (users spread round-robin), or with
   * all-warehouses every warehouse dealt to it round-robin (at least its home one).
   */
  static int[] warehousesOf(int u, int users, int warehouses, boolean all) {
    int home = u % warehouses + 1;
    if (!all || users >= warehouses) {
      return new int[] {home};
    }
    List<Integer> mine = new ArrayList<>();
    for (int w = 1; w <= warehouses; w++) {
      if ((w - 1) % users == u) {
        mine.add(w);
      }
    }
    return mine.stream().mapToInt(Integer::intValue).toArray();
  }
}
