package org.pgknob.workload.pgbench;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.pgknob.workload.OptionValues;
import org.pgknob.workload.WorkloadKind;
import org.pgknob.workload.WorkloadSpec;

/** pgbench's TPC-B-like and select-only scripts in the workload registry, with their defaults. */
public final class PgbenchKind implements WorkloadKind {
  public static final int DEFAULT_SCALE = 10;

  @Override
  public List<String> names() {
    return Arrays.stream(PgbenchScript.values()).map(PgbenchScript::workloadName).toList();
  }

  @Override
  public WorkloadSpec spec(String name, Map<String, Object> options) {
    return new PgbenchSpec(
        PgbenchScript.byWorkloadName(name),
        OptionValues.intOf(options, DEFAULT_SCALE, "scale"),
        OptionValues.intOf(options, DEFAULT_USERS, "users"));
  }
}
