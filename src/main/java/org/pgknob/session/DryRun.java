package org.pgknob.session;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.pgknob.runs.Track;
import org.pgknob.server.Target;
import org.pgknob.space.SearchSpace;
import org.pgknob.workload.WorkloadSpec;

/**
 * {@code pgknob tune --dry-run}: what a session would do, read from the server without changing it.
 */
public final class DryRun {
  private DryRun() {}

  /**
   * What {@code tune --dry-run} prints: the plan, the search space as the server sees it and the
   * memory limit. Reads pg_settings and the host's facts; changes nothing, builds nothing.
   */
  public static List<String> lines(SessionInputs inputs, Target target, Clock clock) {
    SessionContext context = SessionContext.open(inputs, target);
    List<String> out = new ArrayList<>();
    out.add("server: " + target.describe() + ", PostgreSQL " + context.facts().serverVersion());
    out.add("workload: " + workloadLine(inputs));
    if (inputs.autoWindow() != null) {
      out.add(
          "window: --duration auto: "
              + inputs.windowSeconds()
              + " s for the baselines, then chosen from their noise; this plan assumes "
              + inputs.windowSeconds()
              + " s and is remade then");
    }
    out.addAll(
        PlanSummary.lines(
            SessionPlanning.plan(context, inputs),
            SessionPlanning.estimatedTrialSeconds(context, inputs),
            clock.instant()));
    out.add(
        String.format(
            java.util.Locale.ROOT,
            "memory limit: %.1f GiB (%.0f%% of %.1f GiB RAM); every proposal's predicted memory"
                + " must stay under it",
            context.memoryLimitBytes() / (1024.0 * 1024 * 1024),
            100 * context.rules().limitFraction(),
            context.ram().bytes() / (1024.0 * 1024 * 1024)));
    out.add(DiskLine.of(context.walRoom(), context.rules(), context.serverSettings()));
    SearchSpace space = context.space();
    out.add(
        "space: "
            + space.size()
            + " knobs ("
            + context.trackSpace(Track.RELOAD).size()
            + " apply on reload): "
            + String.join(", ", space.names()));
    out.add("nothing was changed on the server (dry run)");
    return out;
  }

  /**
   * "tprocc, 4 users, 5 s ramp-up, 15 s windows"; a command's name alone (it times itself, and its
   * text may hold a password).
   */
  private static String workloadLine(SessionInputs inputs) {
    WorkloadSpec w = inputs.workload();
    return w.timedByPgknob()
        ? String.format(
            java.util.Locale.ROOT,
            "%s, %d users, %d s ramp-up, %d s windows",
            w.name(),
            w.users(),
            inputs.rampupSeconds(),
            inputs.windowSeconds())
        : w.name();
  }
}
