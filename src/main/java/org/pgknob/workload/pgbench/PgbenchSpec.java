package org.pgknob.workload.pgbench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;
import org.pgknob.workload.MarkedDatabases;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadKind;
import org.pgknob.workload.WorkloadSpec;

/**
 * One of pgbench's scripts as a session runs it. Both scripts share one database per scale ({@code
 * pgbench_s<scale>}), reset from {@code pgbench_s<scale>_pristine} before every run.
 *
 * @param script which built-in script
 * @param scale pgbench's scale factor: 100,000 accounts each
 * @param users clients, one connection each
 */
public record PgbenchSpec(PgbenchScript script, int scale, int users) implements WorkloadSpec {
  public static final int MAX_SCALE = 20_000;

  /** About the bytes of one unit of scale once built (table and primary key). */
  static final long BYTES_PER_SCALE = 15L * 1024 * 1024;

  public PgbenchSpec {
    if (scale < 1 || scale > MAX_SCALE) {
      throw new PgknobException(
          "--scale must be between 1 and " + MAX_SCALE + ", but got " + scale,
          "pgbench's scale is 100,000 accounts, about 15 MB, each");
    }
    if (users < 1) {
      throw new PgknobException("--users must be at least 1, but got " + users, "give 1 or more");
    }
  }

  @Override
  public String name() {
    return script.workloadName();
  }

  @Override
  public long databaseBytes() {
    return scale * BYTES_PER_SCALE;
  }

  @Override
  public String database() {
    return "pgbench_s" + scale;
  }

  String pristineDatabase() {
    return MarkedDatabases.pristineName(database());
  }

  @Override
  public String applicationName() {
    return PgbenchWorkload.APPLICATION_NAME;
  }

  @Override
  public List<String> tuneArguments() {
    List<String> out = new ArrayList<>(List.of("--workload", name()));
    if (scale != PgbenchKind.DEFAULT_SCALE) {
      out.addAll(List.of("--scale", Integer.toString(scale)));
    }
    if (users != WorkloadKind.DEFAULT_USERS) {
      out.addAll(List.of("--vus", Integer.toString(users)));
    }
    return out;
  }

  @Override
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name());
    m.put("scale", scale);
    m.put("users", users);
    return m;
  }

  @Override
  public Workload create(int rampupSeconds, int windowSeconds) {
    return new PgbenchWorkload(this, rampupSeconds, windowSeconds);
  }
}
