package org.pgknob.workload.tprocc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadKind;
import org.pgknob.workload.WorkloadSpec;

/**
 * TPROC-C as a session runs it: its size, its virtual users, HammerDB's all-warehouses option. One
 * database per size ({@code tprocc_w<warehouses>}), so sessions of different sizes each keep their
 * build.
 */
public record TproccSpec(int warehouses, int users, boolean allWarehouses) implements WorkloadSpec {
  public TproccSpec {
    // Checks the values once, with the messages the command line shows.
    TproccSettings.defaults(warehouses).withUsers(users);
  }

  @Override
  public String name() {
    return TproccKind.NAME;
  }

  @Override
  public long databaseBytes() {
    return warehouses * TproccSettings.BYTES_PER_WAREHOUSE;
  }

  @Override
  public String database() {
    return TproccSettings.DEFAULT_DATABASE + "_w" + warehouses;
  }

  @Override
  public String applicationName() {
    return TproccWorkload.APPLICATION_NAME;
  }

  /** None for the default TPROC-C: it is tune's default workload. */
  @Override
  public List<String> tuneArguments() {
    List<String> out = new ArrayList<>();
    if (warehouses != TproccKind.DEFAULT_WAREHOUSES) {
      out.addAll(List.of("--warehouses", Integer.toString(warehouses)));
    }
    if (users != WorkloadKind.DEFAULT_USERS) {
      out.addAll(List.of("--vus", Integer.toString(users)));
    }
    if (allWarehouses) {
      out.add("--all-warehouses");
    }
    return out;
  }

  @Override
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name());
    m.put("warehouses", warehouses);
    m.put("users", users);
    m.put("allWarehouses", allWarehouses);
    return m;
  }

  @Override
  public Workload create(int rampupSeconds, int windowSeconds) {
    return new TproccWorkload(
        TproccSettings.defaults(warehouses)
            .withDatabase(database())
            .withUsers(users)
            .withTimes(rampupSeconds, windowSeconds)
            .withOptions(allWarehouses, false, TproccSettings.ResetMode.TEMPLATE));
  }
}
