package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;

/** TPROC-C as a {@link Workload}: build once, reset from the pristine copy, run a fixed window. */
public final class TproccWorkload implements Workload {
  private final TproccSettings settings;

  public TproccWorkload(TproccSettings settings) {
    this.settings = settings;
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
    try (Connection admin = target.connect(TproccBuilder.MAINTENANCE_DATABASE)) {
      return new TproccDatabases(admin).resetFromPristine(settings.database());
    } catch (SQLException e) {
      throw new PgknobException(
          "resetting the TPROC-C database failed: " + e.getMessage(),
          "check the server's log and free disk space",
          e);
    }
  }

  @Override
  public WorkloadResult run(Target target, RunListener listener) {
    return new TproccDriver(settings).run(target, listener);
  }

  /**
   * TPC-C's consistency conditions 1 to 4 on the live database.
   *
   * @throws PgknobException when the database is missing or not pgknob's TPROC-C of this version
   */
  public List<ConsistencyCheck.Condition> check(Target target) {
    try (Connection admin = target.connect(TproccBuilder.MAINTENANCE_DATABASE)) {
      DatabaseMark mark =
          new TproccDatabases(admin)
              .mark(settings.database())
              .orElseThrow(
                  () ->
                      new PgknobException(
                          "there is no database " + settings.database() + " to check",
                          "build it with: pgknob tprocc build --warehouses N"));
      TproccDatabases.requireCurrentVersion(settings.database(), mark);
    } catch (SQLException e) {
      throw new PgknobException("cannot read the server's databases: " + e.getMessage(), "", e);
    }
    try (Connection c = target.connect(settings.database())) {
      return ConsistencyCheck.run(c);
    } catch (SQLException e) {
      throw new PgknobException(
          "the consistency check failed: " + e.getMessage(),
          "rebuild with: pgknob tprocc build --rebuild",
          e);
    }
  }

  @Override
  public int connections() {
    return settings.users() + 1;
  }
}
