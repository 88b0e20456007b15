package org.pgknob.workload.pgbench;

import java.sql.Connection;
import org.pgknob.workload.MarkFormat;
import org.pgknob.workload.MarkedDatabases;

/** pgbench's database marks ({@code pgknob pgbench v2 scale=10}) and its marked databases. */
final class PgbenchMarks {
  /** Version 2: branches' and tellers' filler NULL, as pgbench -i leaves it (v1 wrote ''). */
  static final MarkFormat FORMAT = new MarkFormat("pgbench", "scale", 2);

  private PgbenchMarks() {}

  /** pgbench's databases through {@code admin}, a connection to the maintenance database. */
  static MarkedDatabases on(Connection admin) {
    return new MarkedDatabases(
        admin,
        FORMAT,
        "drop or rename it yourself, or use another --scale",
        "run the session again: pgknob builds it on first use");
  }
}
