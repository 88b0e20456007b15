package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.workload.Progress;

/**
 * One 1-warehouse TPROC-C database for every test of this JVM: building it takes a while, so it is
 * built on first use and shared. Tests that change data reset it first.
 */
public final class TproccTestDatabase {
  public static final TproccSettings SETTINGS =
      new TproccSettings(
          "tprocc_test", 1, 2, 1, 3, false, false, TproccSettings.ResetMode.TEMPLATE, 30, 2);

  private static TproccBuilder.BuildReport report;

  private TproccTestDatabase() {}

  public static synchronized TproccBuilder.BuildReport built() {
    if (report == null) {
      report = new TproccBuilder(SharedPostgres.cluster(), SETTINGS).build(false, Progress.SILENT);
    }
    return report;
  }

  /** The live database as the pristine copy holds it. */
  static void reset() {
    built();
    new TproccWorkload(SETTINGS).reset(SharedPostgres.cluster());
  }

  static Connection connect() throws SQLException {
    built();
    return SharedPostgres.cluster().connect(SETTINGS.database());
  }

  static long queryLong(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
