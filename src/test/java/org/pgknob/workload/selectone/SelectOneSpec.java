package org.pgknob.workload.selectone;

import java.util.Map;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadSpec;

/** {@code SELECT 1} from {@code users} clients in the maintenance database: no data, no reset. */
record SelectOneSpec(int users) implements WorkloadSpec {
  static final String APPLICATION_NAME = "pgknob select-one";

  @Override
  public String name() {
    return SelectOneKind.NAME;
  }

  @Override
  public long databaseBytes() {
    return 0;
  }

  @Override
  public String database() {
    return "postgres";
  }

  @Override
  public String applicationName() {
    return APPLICATION_NAME;
  }

  @Override
  public Map<String, Object> toMap() {
    return Map.of("name", name(), "users", users);
  }

  @Override
  public Workload create(int rampupSeconds, int windowSeconds) {
    return new SelectOneWorkload(this, rampupSeconds, windowSeconds);
  }
}
