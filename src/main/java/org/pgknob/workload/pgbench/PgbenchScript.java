package org.pgknob.workload.pgbench;

import java.util.function.IntFunction;

/** pgbench's built-in scripts pgknob runs, by their workload names. */
public enum PgbenchScript {
  TPCB_LIKE("pgbench-tpcb", "tpcb-like", TpcbLike::new),
  SELECT_ONLY("pgbench-select", "select-only", SelectOnly::new);

  private final String workloadName;
  private final String pgbenchName;
  private final IntFunction<PgbenchTransaction> make;

  PgbenchScript(String workloadName, String pgbenchName, IntFunction<PgbenchTransaction> make) {
    this.workloadName = workloadName;
    this.pgbenchName = pgbenchName;
    this.make = make;
  }

  /** The name {@code --workload} takes: pgbench-tpcb, pgbench-select. */
  public String workloadName() {
    return workloadName;
  }

  /** The name pgbench gives it ({@code pgbench -b NAME}). */
  public String pgbenchName() {
    return pgbenchName;
  }

  PgbenchTransaction transaction(int scale) {
    return make.apply(scale);
  }

  static PgbenchScript byWorkloadName(String name) {
    for (PgbenchScript s : values()) {
      if (s.workloadName.equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("not a pgbench workload: " + name);
  }
}
