package org.pgknob.workload.tprocc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.BuildFailure;
import org.pgknob.workload.DatabaseMark;
import org.pgknob.workload.MarkedDatabases;
import org.pgknob.workload.Progress;

/**
 * Builds the TPROC-C database: a pristine copy loaded and indexed once ({@code tprocc_pristine}),
 * and the live database every run uses, copied from it ({@code tprocc}). Both carry pgknob's mark;
 * a database of either name that pgknob did not create is never touched.
 */
public final class TproccBuilder {
  /** What a build did. */
  public record BuildReport(
      boolean built, int warehouses, double loadSeconds, double totalSeconds) {}

  private final Target target;
  private final TproccSettings settings;

  public TproccBuilder(Target target, TproccSettings settings) {
    this.target = target;
    this.settings = settings;
  }

  /**
   * Builds unless a finished build of the same size and version is there (then only the live
   * database is recreated if it is missing).
   *
   * @param rebuild drop pgknob's existing TPROC-C databases of this name and build again
   */
  public BuildReport build(boolean rebuild, Progress progress) {
    try (Connection admin = target.connect(MarkedDatabases.MAINTENANCE_DATABASE)) {
      MarkedDatabases dbs = TproccMarks.on(admin);
      String live = settings.database();
      String pristine = settings.pristineDatabase();
      Optional<DatabaseMark> liveMark = dbs.mark(live);
      Optional<DatabaseMark> pristineMark = dbs.mark(pristine);
      if (!rebuild) {
        liveMark.ifPresent(m -> dbs.requireCurrentVersion(live, m));
        if (pristineMark.isPresent()) {
          DatabaseMark mark = pristineMark.get();
          dbs.requireCurrentVersion(pristine, mark);
          if (mark.role() == DatabaseMark.Role.PRISTINE) {
            if (mark.size() != settings.warehouses()) {
              throw new PgknobException(
                  "the TPROC-C database "
                      + live
                      + " was built with "
                      + mark.size()
                      + " warehouses, not "
                      + settings.warehouses(),
                  "add --rebuild to build it again with "
                      + settings.warehouses()
                      + ", or ask for --warehouses "
                      + mark.size());
            }
            if (liveMark.isEmpty()) {
              progress.begin("copy " + pristine + " to " + live, 0, "");
              dbs.resetFromPristine(live);
              progress.end();
            }
            return new BuildReport(false, mark.size(), 0, 0);
          }
          // A pristine database still marked "building": an interrupted build, built again below.
        }
      }
      return buildFresh(dbs, progress);
    } catch (SQLException e) {
      throw BuildFailure.of(
          "building the TPROC-C database",
          e,
          "check the server's log and free disk space (about 100 MB per warehouse, twice)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("the build was interrupted", "run it again to rebuild", e);
    }
  }

  private BuildReport buildFresh(MarkedDatabases dbs, Progress progress)
      throws SQLException, InterruptedException {
    long started = System.nanoTime();
    String live = settings.database();
    String pristine = settings.pristineDatabase();
    int warehouses = settings.warehouses();
    dbs.dropIfOurs(live);
    dbs.dropIfOurs(pristine);
    dbs.createMarked(pristine, TproccMarks.FORMAT.building());

    try (Connection c = target.connect(pristine)) {
      TproccSchema.execute(c, TproccSchema.TABLES);
    }
    long loadStarted = System.nanoTime();
    progress.begin(
        "load " + warehouses + (warehouses == 1 ? " warehouse" : " warehouses"),
        TproccLoader.totalRows(warehouses),
        "rows");
    new TproccLoader(target, pristine, warehouses, settings.loadThreads()).load(progress);
    progress.end();
    double loadSeconds = (System.nanoTime() - loadStarted) / 1e9;

    try (Connection c = target.connect(pristine);
        Statement st = c.createStatement()) {
      List<String> keys = TproccSchema.statements(TproccSchema.KEYS);
      progress.begin("keys and indexes", keys.size(), "indexes");
      for (String ddl : keys) {
        st.execute(ddl);
        progress.advance(1);
      }
      progress.end();
      progress.begin("functions", 0, "");
      TproccSchema.execute(c, TproccSchema.FUNCTIONS);
      progress.end();
      // VACUUM sets hint bits and the visibility map now, so the first trial does not pay for it.
      progress.begin("vacuum analyze", TproccSchema.TABLE_NAMES.size(), "tables");
      for (String table : TproccSchema.TABLE_NAMES) {
        st.execute("VACUUM (ANALYZE) " + table);
        progress.advance(1);
      }
      progress.end();
    }
    dbs.setMark(pristine, TproccMarks.FORMAT.pristine(warehouses));
    dbs.closeToConnections(pristine);
    progress.begin("copy " + pristine + " to " + live, 0, "");
    dbs.resetFromPristine(live);
    progress.end();
    return new BuildReport(true, warehouses, loadSeconds, (System.nanoTime() - started) / 1e9);
  }
}
