package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.DatabaseMark;
import org.pgknob.workload.MarkedDatabases;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.driver.ClosedLoopDriver;
import org.pgknob.workload.driver.DriverRun;
import org.pgknob.workload.driver.PoolPerTarget;

/**
 * TPROC-C as a {@link Workload}: build once, reset from the pristine copy, run a fixed window on
 * the closed-loop driver. The figures come both HammerDB's way (pg_stat_database and d_next_o_id
 * deltas) and the driver's way (its own counts and latency histograms).
 */
public final class TproccWorkload implements Workload {
  /** How the driver's connections name themselves in pg_stat_activity. */
  static final String APPLICATION_NAME = "pgknob tprocc";

  private static final List<String> TRANSACTION_NAMES =
      Arrays.stream(TransactionType.values()).map(TransactionType::label).toList();

  private final TproccSettings settings;
  private final PoolPerTarget pools;

  public TproccWorkload(TproccSettings settings) {
    this.settings = settings;
    this.pools =
        new PoolPerTarget(
            settings.database(), settings.users(), APPLICATION_NAME, new Properties());
  }

  public TproccSettings settings() {
    return settings;
  }

  @Override
  public String name() {
    return "tprocc";
  }

  @Override
  public void prepare(Target target, Progress progress) {
    new TproccBuilder(target, settings).build(false, progress);
  }

  @Override
  public double reset(Target target) {
    if (settings.reset() == TproccSettings.ResetMode.NONE) {
      return 0;
    }
    return MarkedDatabases.reset(target, TproccMarks::on, settings.database());
  }

  @Override
  public WorkloadResult run(Target target, RunListener listener) {
    ClosedLoopDriver.Plan plan =
        new ClosedLoopDriver.Plan(
            "TPROC-C",
            "virtual users",
            TRANSACTION_NAMES,
            settings.database(),
            settings.users(),
            settings.rampupSeconds(),
            settings.durationSeconds(),
            settings.stopTimeoutSeconds(),
            "build it again with: pgknob tprocc build --rebuild --warehouses N (the size you want, e.g. 2)");
    TproccClients clients = new TproccClients(settings);
    DriverRun run = new ClosedLoopDriver(plan, clients).run(pools.of(target), listener);
    double perMinute = 60.0 / run.windowSeconds();
    long driverNewOrders =
        run.figures().profile(TransactionType.NEW_ORDER.ordinal()).calls()
            - run.figures().profile(TransactionType.NEW_ORDER.ordinal()).rollbacks();
    Map<String, Double> extra = new LinkedHashMap<>();
    extra.put("warehouses", (double) clients.warehouses());
    extra.put("serverTransactions", (double) clients.serverTransactions());
    extra.put("serverNewOrders", (double) clients.serverNewOrders());
    extra.put("driverNewOrders", (double) driverNewOrders);
    TpccFigures tpcc =
        new TpccFigures(
            clients.serverTransactions() * perMinute,
            clients.serverNewOrders() * perMinute,
            run.figures().rollbacks(),
            run.figures().profiles());
    return run.result(plan, tpcc, extra);
  }

  /**
   * TPC-C's consistency conditions 1 to 4 on the live database.
   *
   * @throws PgknobException when the database is missing or not pgknob's TPROC-C of this version
   */
  public List<ConsistencyCheck.Condition> check(Target target) {
    try (Connection admin = target.connect(MarkedDatabases.MAINTENANCE_DATABASE)) {
      MarkedDatabases dbs = TproccMarks.on(admin);
      DatabaseMark mark =
          dbs.mark(settings.database())
              .orElseThrow(
                  () ->
                      new PgknobException(
                          "there is no database " + settings.database() + " to check",
                          "build it with: pgknob tprocc build --warehouses N"));
      dbs.requireCurrentVersion(settings.database(), mark);
    } catch (SQLException e) {
      throw new PgknobException("cannot read the server's databases: " + e.getMessage(), "", e);
    }
    try (Connection c = target.connect(settings.database())) {
      return ConsistencyCheck.run(c);
    } catch (SQLException e) {
      throw new PgknobException(
          "the consistency check failed: " + e.getMessage(),
          "rebuild with: pgknob tprocc build --rebuild --warehouses N (the size you want, e.g. 2)",
          e);
    }
  }

  @Override
  public int connections() {
    return settings.users() + 1;
  }

  /** Closes the driver's pool: its idle connections would otherwise stay up to 10 s. */
  @Override
  public void close() {
    pools.close();
  }
}
