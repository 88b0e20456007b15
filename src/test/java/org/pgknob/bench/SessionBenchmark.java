package org.pgknob.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionPlan;
import org.pgknob.session.Step;
import org.pgknob.session.ValidationStats;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Reads a finished session folder and prints the figures the session benchmark reports: each
 * track's TPS gain over the defaults with its 95% interval, the gain over the PGTune-style
 * configuration (paired within the same validation rounds), and the trial at which each track's
 * search reached 95% of its final best.
 *
 * <p>Usage: {@code bench/session-bench.sh} runs a session and then this on its folder.
 */
public final class SessionBenchmark {
  private SessionBenchmark() {}

  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: SessionBenchmark RUN_DIR");
      System.exit(2);
    }
    SessionFolder folder = SessionFolder.open(Path.of(args[0]));
    Summary summary = folder.readSummary();
    List<TrialResult> trials = folder.trials().read().trials();
    SessionPlan plan = folder.readState().plan();
    System.out.println(report(summary, trials, plan));
  }

  static String report(Summary summary, List<TrialResult> trials, SessionPlan plan) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "session %s: %s, PostgreSQL %s, %s%n",
            summary.sessionId(),
            summary.machine() == null ? "" : summary.machine().cores() + " cores",
            summary.postgresVersion(),
            summary.workload()));
    if (summary.noise() != null) {
      out.append(
          String.format(
              Locale.ROOT,
              "baseline: %.1f TPS over %d runs, noise (CV) %.1f%%%n",
              summary.noise().tpsMean(),
              summary.noise().runs(),
              100 * summary.noise().tpsCv()));
    }
    out.append(
        String.format(
            Locale.ROOT, "%n%-16s %-26s %s%n", "vs defaults", "TPS ratio (95% CI)", "verdict"));
    for (Summary.ResultRow row : summary.results()) {
      if (row.tpsRatio() != null) {
        out.append(
            String.format(
                Locale.ROOT, "%-16s %-26s %s%n", row.name(), ratio(row.tpsRatio()), row.verdict()));
      }
    }
    Map<String, List<double[]>> overPgtune = pairedWithPgtune(trials, plan);
    if (!overPgtune.isEmpty()) {
      out.append(
          String.format(Locale.ROOT, "%n%-16s %s%n", "vs PGTune-style", "TPS ratio (95% CI)"));
      overPgtune.forEach(
          (name, pairs) -> {
            if (pairs.size() >= 2) {
              out.append(
                  String.format(
                      Locale.ROOT, "%-16s %s%n", name, ratio(ValidationStats.ratio(pairs))));
            }
          });
    }
    out.append(String.format(Locale.ROOT, "%nconvergence (search trials, TPS with checkpoint)%n"));
    for (Track track : Track.values()) {
      convergence(trials, track).ifPresent(line -> out.append(line).append('\n'));
    }
    return out.toString();
  }

  /** Per candidate, its (pgtune, candidate) TPS pairs from the same validation rounds. */
  private static Map<String, List<double[]>> pairedWithPgtune(
      List<TrialResult> trials, SessionPlan plan) {
    Map<Integer, Map<String, TrialResult>> rounds = new LinkedHashMap<>();
    for (TrialResult t : trials) {
      if (t.phase() != Phase.VALIDATION || !t.isOk()) {
        continue;
      }
      Step step = plan.steps().get(t.trial() - 1);
      rounds.computeIfAbsent(step.index(), k -> new LinkedHashMap<>()).put(step.subject(), t);
    }
    Map<String, List<double[]>> out = new LinkedHashMap<>();
    for (Map<String, TrialResult> round : rounds.values()) {
      TrialResult pgtune = round.get("pgtune");
      if (pgtune == null) {
        continue;
      }
      round.forEach(
          (name, t) -> {
            if (!name.equals("pgtune") && !name.equals(SessionPlan.BASELINE)) {
              out.computeIfAbsent(name, k -> new ArrayList<>())
                  .add(
                      new double[] {
                        pgtune.workload().tpsWithCheckpoint(), t.workload().tpsWithCheckpoint()
                      });
            }
          });
    }
    return out;
  }

  /** The trial at which a track's best-so-far first reached 95% of its final best. */
  private static java.util.Optional<String> convergence(List<TrialResult> trials, Track track) {
    List<TrialResult> search =
        trials.stream()
            .filter(TrialResult::isOk)
            .filter(t -> t.phase() == Phase.BAYES && t.track() == track)
            .toList();
    if (search.isEmpty()) {
      return java.util.Optional.empty();
    }
    double finalBest =
        search.stream().mapToDouble(t -> t.workload().tpsWithCheckpoint()).max().orElse(0);
    double best = 0;
    int k = 0;
    for (TrialResult t : search) {
      k++;
      best = Math.max(best, t.workload().tpsWithCheckpoint());
      if (best >= 0.95 * finalBest) {
        return java.util.Optional.of(
            String.format(
                Locale.ROOT,
                "%-8s best %.1f TPS; 95%% of it reached at iteration %d of %d (session trial %d)",
                track,
                finalBest,
                k,
                search.size(),
                t.trial()));
      }
    }
    return java.util.Optional.empty();
  }

  private static String ratio(Summary.Ratio r) {
    return String.format(
        Locale.ROOT, "%.2fx (%.2f to %.2f, %d pairs)", r.estimate(), r.low(), r.high(), r.pairs());
  }
}
