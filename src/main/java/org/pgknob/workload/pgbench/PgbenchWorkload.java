package org.pgknob.workload.pgbench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.driver.ClosedLoopDriver;

/**
 * pgbench's TPC-B-like or select-only script as a {@link Workload}, driven by pgknob over JDBC:
 * build once (on first use), reset from the pristine copy, run a fixed window.
 */
public final class PgbenchWorkload implements Workload {
  /** How the clients name themselves in pg_stat_activity. */
  static final String APPLICATION_NAME = "pgknob pgbench";

  private final PgbenchSpec spec;
  private final int rampupSeconds;
  private final int windowSeconds;

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
    try (Connection admin = target.connect(PgbenchDatabases.MAINTENANCE_DATABASE)) {
      return new PgbenchDatabases(admin)
          .resetFromPristine(spec.database(), spec.pristineDatabase());
    } catch (SQLException e) {
      throw new PgknobException(
          "resetting the pgbench database failed: " + e.getMessage(),
          "check the server's log and free disk space",
          e);
    }
  }

  /**
   * Runs the script closed-loop as pgbench does by default: the simple query protocol, one round
   * trip per statement, no pause; each client draws from its own random stream.
   */
  @Override
  public WorkloadResult run(Target target, RunListener listener) {
    Properties simple = new Properties();
    simple.setProperty("preferQueryMode", "simple");
    ClosedLoopDriver.Plan plan =
        new ClosedLoopDriver.Plan(
            "pgbench",
            spec.script().pgbenchName(),
            spec.database(),
            APPLICATION_NAME,
            spec.users(),
            rampupSeconds,
            windowSeconds,
            simple);
    SplittableRandom seeds = new SplittableRandom();
    PgbenchTransaction script = spec.script().transaction(spec.scale());
    return new ClosedLoopDriver(
            plan,
            client -> {
              SplittableRandom random = seeds.split();
              return st -> script.execute(st, random);
            })
        .run(target, listener, Map.of("scale", (double) spec.scale()));
  }

  @Override
  public int connections() {
    return spec.users() + 1;
  }
}
