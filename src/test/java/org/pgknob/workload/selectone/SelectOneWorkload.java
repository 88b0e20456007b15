package org.pgknob.workload.selectone;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.pgknob.server.Target;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.driver.Clients;
import org.pgknob.workload.driver.ClosedLoopDriver;
import org.pgknob.workload.driver.PoolPerTarget;

/** {@code SELECT 1} in a closed loop on pgknob's driver. */
final class SelectOneWorkload implements Workload {
  static final String SELECT_ONE =
      """
      SELECT 1""";

  private final SelectOneSpec spec;
  private final int rampupSeconds;
  private final int windowSeconds;
  private final PoolPerTarget pools;

  SelectOneWorkload(SelectOneSpec spec, int rampupSeconds, int windowSeconds) {
    this.spec = spec;
    this.rampupSeconds = rampupSeconds;
    this.windowSeconds = windowSeconds;
    this.pools =
        new PoolPerTarget(
            spec.database(), spec.users(), SelectOneSpec.APPLICATION_NAME, new Properties());
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public void prepare(Target target, Progress progress) {}

  @Override
  public double reset(Target target) {
    return 0;
  }

  @Override
  public WorkloadResult run(Target target, RunListener listener) {
    ClosedLoopDriver.Plan plan =
        new ClosedLoopDriver.Plan(
            "select-one",
            "clients",
            List.of("select1"),
            spec.database(),
            spec.users(),
            rampupSeconds,
            windowSeconds,
            5,
            "no database to build: it runs in " + spec.database());
    Clients clients =
        (index, connection) -> {
          Statement st = connection.createStatement();
          return type -> {
            try (ResultSet rs = st.executeQuery(SELECT_ONE)) {
              return rs.next();
            }
          };
        };
    return new ClosedLoopDriver(plan, clients)
        .run(pools.of(target), listener)
        .result(plan, null, Map.of());
  }

  @Override
  public int connections() {
    return spec.users() + 1;
  }

  @Override
  public void close() {
    pools.close();
  }
}
