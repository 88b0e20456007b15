package org.pgknob.workload.pgbench;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.MarkedDatabases;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.driver.Clients;
import org.pgknob.workload.driver.ClosedLoopDriver;
import org.pgknob.workload.driver.PoolPerTarget;
import org.pgknob.workload.driver.Transaction;

/**
 * pgbench's TPC-B-like or select-only script as a {@link Workload}, driven by pgknob over JDBC:
 * build once (on first use), reset from the pristine copy, run a fixed window.
 */
public final class PgbenchWorkload implements Workload {
  /** How the clients name themselves in pg_stat_activity. */
  static final String APPLICATION_NAME = "pgknob pgbench";

  /** How long clients may take to finish their last script after the window. */
  static final int STOP_TIMEOUT_SECONDS = 30;

  private final PgbenchSpec spec;
  private final int rampupSeconds;
  private final int windowSeconds;
  private final PoolPerTarget pools;

  public PgbenchWorkload(PgbenchSpec spec, int rampupSeconds, int windowSeconds) {
    if (rampupSeconds < 0 || windowSeconds < 1) {
      throw new PgknobException(
          "--rampup must be >= 0 s and --duration >= 1 s, got "
              + rampupSeconds
              + " s and "
              + windowSeconds
              + " s",
          "");
    }
    this.spec = spec;
    this.rampupSeconds = rampupSeconds;
    this.windowSeconds = windowSeconds;
    Properties simple = new Properties();
    simple.setProperty("preferQueryMode", "simple");
    this.pools = new PoolPerTarget(spec.database(), spec.users(), APPLICATION_NAME, simple);
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public void prepare(Target target, Progress progress) {
    new PgbenchBuilder(target, spec).build(progress);
  }

  @Override
  public double reset(Target target) {
    return MarkedDatabases.reset(target, PgbenchMarks::on, spec.database());
  }

  /**
   * Runs the script closed-loop as pgbench does by default: the simple query protocol, one round
   * trip per statement, no pause; each client draws from its own random stream.
   */
  @Override
  public WorkloadResult run(Target target, RunListener listener) {
    ClosedLoopDriver.Plan plan =
        new ClosedLoopDriver.Plan(
            "pgbench",
            "pgbench clients",
            List.of(spec.script().pgbenchName()),
            spec.database(),
            spec.users(),
            rampupSeconds,
            windowSeconds,
            STOP_TIMEOUT_SECONDS,
            "pgknob builds it again on the next session's first use");
    SplittableRandom seeds = new SplittableRandom();
    PgbenchTransaction script = spec.script().transaction(spec.scale());
    Clients clients =
        (index, connection) -> {
          SplittableRandom random = seeds.split();
          Statement st = connection.createStatement();
          // The scripts' SQL holds no JDBC escapes: skip pgJDBC's scan for them, as pgbench
          // sends its text as it is.
          st.setEscapeProcessing(false);
          return new Transaction() {
            @Override
            public boolean execute(int type) throws SQLException {
              script.execute(st, random);
              return true;
            }

            /** A failed statement leaves the script's transaction aborted: end it. */
            @Override
            public void recover() throws SQLException {
              st.execute("ROLLBACK");
            }
          };
        };
    return new ClosedLoopDriver(plan, clients)
        .run(pools.of(target), listener)
        .result(plan, null, Map.of("scale", (double) spec.scale()));
  }

  @Override
  public int connections() {
    return spec.users() + 1;
  }

  /** Closes the driver's pool: its idle connections would otherwise stay up to 10 s. */
  @Override
  public void close() {
    pools.close();
  }
}
