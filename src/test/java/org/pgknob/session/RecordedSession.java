package org.pgknob.session;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.pgknob.runs.Summary;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * A session run to its end in a new folder under {@code runs}, on the tests' shared PostgreSQL 18,
 * with what a test reads of it: its summary, its console and its logged trials.
 *
 * @param cluster the server it ran on (a test may open a context on it afterwards)
 */
record RecordedSession(
    ManagedCluster cluster,
    SessionFolder folder,
    Summary summary,
    String console,
    List<TrialResult> trials) {

  /**
   * @param plan the plan to run, or null for the one the inputs' budget gives
   */
  static RecordedSession run(Path runs, SessionInputs inputs, SessionPlan plan) {
    ManagedCluster cluster = SessionPostgres.cluster();
    SessionFolder folder = SessionFolder.create(runs, Clock.systemUTC());
    cluster.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));
    StringWriter out = new StringWriter();
    Summary summary =
        TuningSession.create(
                folder,
                inputs,
                plan,
                cluster,
                new ProgressPrinter(new PrintWriter(out, true), false),
                Progress.SILENT,
                Clock.systemUTC())
            .run();
    return new RecordedSession(
        cluster, folder, summary, out.toString(), folder.trials().read().trials());
  }

  /** Each trial's label and settings, one a line, then the console: for a failing assertion. */
  String log() {
    StringBuilder out = new StringBuilder();
    trials.forEach(t -> out.append(t.label()).append(' ').append(t.settings()).append('\n'));
    return out.append(console).toString();
  }
}
