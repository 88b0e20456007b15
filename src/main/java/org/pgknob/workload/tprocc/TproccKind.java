package org.pgknob.workload.tprocc;

import java.util.List;
import java.util.Map;
import org.pgknob.workload.OptionValues;
import org.pgknob.workload.WorkloadKind;
import org.pgknob.workload.WorkloadSpec;

/** TPROC-C in the workload registry, with its defaults. */
public final class TproccKind implements WorkloadKind {
  public static final String NAME = "tprocc";
  public static final int DEFAULT_WAREHOUSES = 2;

  @Override
  public List<String> names() {
    return List.of(NAME);
  }

  /** Reads "users", and "virtualUsers" or "vus" as sessions before workload specs wrote it. */
  @Override
  public WorkloadSpec spec(String name, Map<String, Object> options) {
    return new TproccSpec(
        OptionValues.intOf(options, DEFAULT_WAREHOUSES, "warehouses"),
        OptionValues.intOf(options, WorkloadKind.DEFAULT_USERS, "users", "virtualUsers", "vus"),
        OptionValues.booleanOf(options, false, "allWarehouses"));
  }
}
