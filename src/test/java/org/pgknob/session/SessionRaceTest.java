package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * A short session through --workload-cmd against a real PostgreSQL 18, with a deterministic
 * synthetic workload: the defaults give 1000 TPS, any other configuration 1200 (the objective also
 * counts the CHECKPOINT after each 1-s window, so values still vary by a few percent). The first
 * proposals therefore look better than the defaults, and the two best-looking are raced against
 * each other in paired slots until one is the track's incumbent, the pick validated; the race and
 * the runs of the defaults are in trials.jsonl; and a session resumed after the first race run
 * proposes the same next run as the uninterrupted one did.
 */
class SessionRaceTest {
  /**
   * Restart track only: 3 baseline runs, 9 Bayesian slots, 3 validation rounds of the defaults, the
   * restart pick and PGTune-style.
   */
  private static final String BUDGET = "21";

  private static final String WORKLOAD =
      "s=$(cat); sleep 1; if [ \"$s\" = '{}' ]; then echo '{\"value\": 1000, \"latency_ms\": 4}';"
          + " else echo '{\"value\": 1200, \"latency_ms\": 3.3}'; fi";

  @TempDir Path runs;

  private static SessionInputs inputs() {
    return TinyInputs.withCommand(BUDGET, List.of("restart"), WORKLOAD);
  }

  @Test
  void theTwoBestFirstProposalsAreRacedAndAResumeProposesTheSameNextRun() throws Exception {
    RecordedSession session = RecordedSession.run(runs, inputs(), null);
    SessionFolder folder = session.folder();
    Summary summary = session.summary();
    String out = session.console();
    List<TrialResult> trials = session.trials();
    String phases =
        trials.stream()
            .map(t -> t.label() + " " + Math.round(Objectives.value(t, Goal.TPS)))
            .collect(Collectors.joining("\n"));
    int first = trials.size();
    for (int i = 0; i < trials.size(); i++) {
      if (trials.get(i).phase() == Phase.RACE) {
        first = Math.min(first, i);
      }
    }
    assertTrue(first < trials.size(), "a race ran: " + phases);
    assertTrue(
        trials.stream().filter(t -> t.phase() == Phase.RACE).count() >= 4,
        "two pairs at least: " + phases);
    TrialResult incumbent = trials.get(first);
    TrialResult challenger = trials.get(first + 1);
    for (TrialResult side : List.of(incumbent, challenger)) {
      int source =
          Integer.parseInt(
              side.label().replaceAll(".*(?:incumbent|challenger) #(\\d+) pair 1$", "$1"));
      assertEquals(Phase.BAYES, trials.get(source - 1).phase(), side.label());
      assertEquals(trials.get(source - 1).settings(), side.settings(), "a first proposal again");
      assertTrue(!side.settings().isEmpty(), "not a race against the defaults: " + side.label());
    }
    // the race of the first proposals always leaves one of them the track's best, and that one is
    // validated (a later challenger may beat it: the objective counts the CHECKPOINT after the
    // window, which some settings shorten)
    SessionPlan plan = folder.readState().plan();
    int winner =
        new MeasuredSlots(plan)
            .incumbent(Track.RESTART, trials)
            .orElseThrow(() -> new AssertionError("no race won:\n" + phases));
    // a pick that is PGTune-style's configuration (the first proposal is) is measured as it
    Summary.ResultRow pick =
        summary.results().stream()
            .filter(r -> r.name().equals("restart/tps"))
            .findFirst()
            .orElseThrow();
    String measuredAs =
        pick.verdict().contains("the same configuration as PGTune-style, measured once")
            ? " pgtune"
            : " restart/tps";
    TrialResult validated =
        trials.stream()
            .filter(t -> t.label().endsWith(measuredAs))
            .reduce((a, b) -> b)
            .orElseThrow(() -> new AssertionError("the pick was not validated:\n" + phases));
    // the winner, with the settings the evidence does not support left at their defaults
    // (PickSimplifier): every setting validated is the winner's, as PostgreSQL reads the values
    assertTrue(!validated.settings().isEmpty(), phases);
    java.util.Map<String, String> won = trials.get(winner - 1).settings();
    assertTrue(
        validated.settings().entrySet().stream()
            .allMatch(
                e ->
                    won.containsKey(e.getKey())
                        && org.pgknob.server.SettingValue.same(won.get(e.getKey()), e.getValue())),
        validated.settings() + " within the winner's " + won);
    assertEquals(pick.trials().isEmpty(), false, pick.toString());
    long defaultsRuns = trials.stream().filter(t -> t.settings().isEmpty()).count();
    Summary.Measurement tps = summary.measurements().get(0);
    assertEquals(Goal.TPS, tps.objective());
    assertEquals(defaultsRuns, tps.references().size(), "every run of the defaults");
    assertTrue(defaultsRuns >= 3 + 3, "baseline and validation A runs");
    assertTrue(out.contains("noise (tps):"), out);

    // Resume after the first race run: the run after the cut is proposed again, with the same
    // settings. Only that run is in question, so the resumed session stops once it is logged
    // (SessionKillResumeTest checks that a resumed session runs every remaining slot once).
    Path copy = Files.createDirectories(runs.resolve("resumed"));
    for (String f : List.of("session.json", SessionFolder.RESTORE_FILE)) {
      Files.copy(folder.dir().resolve(f), copy.resolve(f));
    }
    List<String> lines = Files.readAllLines(folder.dir().resolve(SessionFolder.TRIALS_FILE));
    Files.write(copy.resolve(SessionFolder.TRIALS_FILE), lines.subList(0, first + 1));
    SessionFolder cut = SessionFolder.open(copy);
    cut.writeState(
        cut.readState().withStatus(SessionState.Status.STOPPED, "cut for the test", Instant.now()));
    SessionFolder resumedFolder = SessionFolder.openForResume(copy);
    ManagedCluster server = SessionPostgres.cluster();
    server.useRestoreFile(resumedFolder.file(SessionFolder.RESTORE_FILE));
    int stopAt = first + 3; // the trial number after the one proposed again
    TuningSession resumed =
        TuningSession.resume(
            resumedFolder,
            server,
            new ProgressPrinter(new PrintWriter(new StopAtTrial(stopAt), true), false),
            Progress.SILENT,
            Clock.systemUTC());
    assertThrows(StopAtTrial.Reached.class, resumed::run);
    server.restoreOriginals();
    List<TrialResult> again = resumedFolder.trials().read().trials();
    assertEquals(first + 2, again.size(), "the run after the cut, logged once");
    for (int i = 0; i <= first + 1; i++) {
      assertEquals(trials.get(i).label(), again.get(i).label());
      assertEquals(trials.get(i).settings(), again.get(i).settings(), "trial " + (i + 1));
    }
  }

  /**
   * A console that ends the session where trial {@code trial} starts, before it touches the server:
   * the progress prints a line "[trial/total] ..." first (in several writes: the text is kept until
   * then).
   */
  private static final class StopAtTrial extends Writer {
    static final class Reached extends RuntimeException {
      Reached(int trial) {
        super("stopped by the test where trial " + trial + " starts");
      }
    }

    private final StringBuilder text = new StringBuilder();
    private final String marker;
    private final int trial;

    StopAtTrial(int trial) {
      this.trial = trial;
      this.marker = "\n[" + trial + "/";
    }

    @Override
    public void write(char[] chars, int offset, int length) {
      text.append(chars, offset, length);
      if (text.indexOf(marker) >= 0) {
        throw new Reached(trial);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
