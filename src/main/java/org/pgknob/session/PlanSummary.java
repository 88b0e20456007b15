package org.pgknob.session;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.pgknob.report.Labels;
import org.pgknob.trial.Phase;

/**
 * The plan in words before the work starts: the phases with their trial counts and when the session
 * should end, from the estimated trial length. Printed at the start of a session and by {@code tune
 * --dry-run}.
 */
public final class PlanSummary {
  private PlanSummary() {}

  /**
   * "plan: 10 trials of about 40 s (about 7 min), ending about 2026-12-01 09:15 UTC", then one line
   * per phase: " baseline 3 trials".
   */
  public static List<String> lines(SessionPlan plan, double trialSeconds, Instant start) {
    return lines(plan, 0, trialSeconds, start);
  }

  /**
   * The same for a plan remade after {@code done} of its trials ran (--duration auto): "plan
   * remade: 14 trials, 3 done, the rest of about 50 s (about 9 min), ending about ...".
   */
  public static List<String> lines(SessionPlan plan, int done, double trialSeconds, Instant now) {
    return lines(plan, done, trialSeconds, now, "plan remade");
  }

  /**
   * The same for a resumed session, {@code done} of whose trials ran before it stopped: "plan: 15
   * trials, 2 done, the rest of about 31 s (about 7 min), ending about ...". Before, a resume
   * printed the whole plan's time, as if no trial had run.
   */
  public static List<String> linesOnResume(
      SessionPlan plan, int done, double trialSeconds, Instant now) {
    return lines(plan, done, trialSeconds, now, "plan");
  }

  private static List<String> lines(
      SessionPlan plan, int done, double trialSeconds, Instant now, String label) {
    List<String> out = new ArrayList<>();
    int total = plan.totalTrials();
    long seconds = Math.round((total - done) * trialSeconds);
    out.add(
        done == 0
            ? String.format(
                Locale.ROOT,
                "plan: %d trials of about %s (about %s), ending about %s",
                total,
                duration(Math.round(trialSeconds)),
                duration(seconds),
                Labels.time(now.plus(Duration.ofSeconds(seconds))))
            : String.format(
                Locale.ROOT,
                "%s: %d trials, %d done, the rest of about %s (about %s), ending about %s",
                label,
                total,
                done,
                duration(Math.round(trialSeconds)),
                duration(seconds),
                Labels.time(now.plus(Duration.ofSeconds(seconds)))));
    for (Phase phase : Phase.values()) {
      long n = plan.steps().stream().filter(s -> s.phase() == phase).count();
      if (n > 0) {
        out.add(
            String.format(
                Locale.ROOT,
                "  %-11s %3d trial%s%s",
                phase.label(),
                n,
                n == 1 ? "" : "s",
                phase == Phase.VALIDATION && plan.validating() != null
                    ? " at most: " + new ValidationRounds(plan, java.util.Set.of()).describe()
                    : ""));
      }
    }
    return out;
  }

  /** "45 s", "7 min", "1 h 05 min". */
  static String duration(long seconds) {
    if (seconds < 90) {
      return seconds + " s";
    }
    long minutes = Math.round(seconds / 60.0);
    return minutes < 60
        ? minutes + " min"
        : String.format(Locale.ROOT, "%d h %02d min", minutes / 60, minutes % 60);
  }
}
