package org.pgknob.workload.tprocc;

import java.sql.Connection;
import org.pgknob.workload.MarkFormat;
import org.pgknob.workload.MarkedDatabases;

/** TPROC-C's database marks ({@code pgknob tprocc v1 warehouses=4}) and its marked databases. */
final class TproccMarks {
  /** The version is bumped whenever the tables, keys or functions change shape. */
  static final MarkFormat FORMAT = new MarkFormat("tprocc", "warehouses", 1);

  private TproccMarks() {}

  /** TPROC-C's databases through {@code admin}, a connection to the maintenance database. */
  static MarkedDatabases on(Connection admin) {
    return new MarkedDatabases(
        admin,
        FORMAT,
        "choose another name with --database, or drop it yourself",
        "build it again with: pgknob tprocc build --rebuild --warehouses N (the size you want, e.g. 2)");
  }
}
