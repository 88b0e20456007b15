package org.pgknob.workload.selectone;

import java.sql.ResultSet;
import java.util.Map;
import java.util.Properties;
import org.pgknob.server.Target;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.driver.ClosedLoopDriver;

/** {@code SELECT 1} in a closed loop on pgknob's driver. */
final class SelectOneWorkload implements Workload {
  static final String SELECT_ONE =
      """
      SELECT 1""";

  private final SelectOneSpec spec;
  private final int rampupSeconds;
  private final int windowSeconds;

  SelectOneWorkload(SelectOneSpec spec, int rampupSeconds, int windowSeconds) {
    this.spec = spec;
    this.rampupSeconds = rampupSeconds;
    this.windowSeconds = windowSeconds;
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
            "select1",
            spec.database(),
            SelectOneSpec.APPLICATION_NAME,
            spec.users(),
            rampupSeconds,
            windowSeconds,
            new Properties());
    ClosedLoopDriver.Transaction selectOne =
        st -> {
          try (ResultSet rs = st.executeQuery(SELECT_ONE)) {
            rs.next();
          }
        };
    return new ClosedLoopDriver(plan, client -> selectOne).run(target, listener, Map.of());
  }

  @Override
  public int connections() {
    return spec.users() + 1;
  }
}
