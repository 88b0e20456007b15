package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Validation until it decides, in a short session through --workload-cmd against a real PostgreSQL
 * 18. The synthetic workload is deterministic: its n-th run reports 1000 TPS (the search's
 * non-default runs 1100) times 1 + (7919 n mod 13 - 6)%, a fixed pattern of +-6% noise, and every
 * configuration but the defaults 4.0 ms against their 4.4 ms. In the validation rounds every
 * configuration performs the same, so the ratios against the defaults include 1 and narrow round by
 * round: validation goes past its 3 first rounds and stops at the first round after which both are
 * within the +-6% target, before the 6 the plan allows.
 *
 * <p>About 17 trials, 4 of each 3 restarting the server (PGTune-style and the run after it).
 */
class SessionValidationTest {
  private static final int MAX_ROUNDS = 6;

  @TempDir Path runs;

  /**
   * The synthetic workload: the n-th run (counted in {@code counter}) reports {@code tps} and
   * {@code latency} (tenths of a ms), shell expressions of n and of the settings {@code $s}, times
   * a fixed +-6% pattern.
   */
  private static SessionInputs inputs(Path counter, String tpsAndLatency) {
    String workload =
        "s=$(cat); f="
            + counter
            + "; n=$(( $(cat $f 2>/dev/null || echo 0) + 1 )); echo $n > $f;"
            + " k=$(( n * 7919 % 13 - 6 ));"
            + tpsAndLatency
            + " echo \"{\\\"value\\\": $(( b * (100 + k) / 100 )),"
            + " \\\"latency_ms\\\": $(( l / 10 )).$(( l % 10 ))}\"";
    return TinyInputs.withCommand("30", List.of("reload"), workload);
  }

  /**
   * The search's second proposal (run 5, counted from 0 in {@code counter}: see the test) is its
   * best: the first is PGTune-style's configuration (the informed initial design), which validation
   * measures once, as PGTune-style.
   */
  private SessionInputs inputs(Path counter) {
    return inputs(
        counter,
        " if [ \"$s\" = '{}' ] || [ $n -ne 4 ]; then b=1000; else b=1100; fi;"
            + " if [ \"$s\" = '{}' ]; then l=44; elif [ $n -eq 4 ]; then l=39; else l=40; fi;");
  }

  /** 3 baseline runs, 2 reload-track proposals, then up to 6 rounds of 3 runs. */
  private static SessionPlan plan() {
    return plan(2, MAX_ROUNDS);
  }

  private static SessionPlan plan(int reloadProposals, int maxRounds) {
    return new SessionPlan(
        3,
        List.of(),
        List.of(new SessionPlan.BayesTrack(Track.RELOAD, reloadProposals)),
        List.of(
            new SessionPlan.Validation("reload/tps", Track.RELOAD),
            new SessionPlan.Validation("pgtune", Track.RESTART)),
        maxRounds,
        null,
        new SessionPlan.Validating(Goal.TPS, 0.06, 3, 1));
  }

  @Test
  void roundsGoOnUntilDecidedWithPgTuneInEachInOrdersOfTheirOwnAndAResumeProposesTheSame()
      throws Exception {
    Path counter = runs.resolve("runs-counted");
    // Counted from 0: validation's runs meet the same +-6% pattern as with one proposal
    java.nio.file.Files.writeString(counter, "-1\n");
    RecordedSession session = RecordedSession.run(runs, inputs(counter), plan());
    SessionFolder folder = session.folder();
    Summary summary = session.summary();
    String out = session.console();
    List<TrialResult> trials = session.trials();
    String log =
        trials.stream()
            .map(
                t ->
                    t.label()
                        + " "
                        + Math.round(Objectives.value(t, Goal.TPS))
                        + " "
                        + Objectives.value(t, Goal.LATENCY)
                        + " "
                        + t.settings())
            .collect(Collectors.joining("\n"));
    List<TrialResult> validation =
        trials.stream().filter(t -> t.phase() == Phase.VALIDATION).toList();

    // rounds of the defaults, the pick and PGTune-style; more than the 3 first, fewer than allowed
    assertEquals(0, validation.size() % 3, log);
    int rounds = validation.size() / 3;
    assertTrue(rounds > 3 && rounds < MAX_ROUNDS, rounds + " rounds:\n" + log);
    List<List<String>> orders = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      List<String> order = new ArrayList<>();
      for (TrialResult t : validation.subList(3 * r, 3 * r + 3)) {
        assertTrue(t.label().startsWith("validation round " + (r + 1) + "/"), t.label());
        order.add(t.label().replaceAll("^validation round \\d+/\\d+ ", ""));
      }
      assertEquals(Set.of("baseline", "reload/tps", "pgtune"), Set.copyOf(order), log);
      if (r > 0) {
        assertNotEquals(orders.get(r - 1), order, "round " + (r + 1) + ":\n" + log);
      }
      orders.add(order);
    }
    assertTrue(
        validation.stream().filter(t -> t.label().endsWith(" pgtune")).allMatch(TrialResult::isOk));
    assertFalse(
        validation.stream()
            .filter(t -> t.label().endsWith(" pgtune"))
            .findFirst()
            .orElseThrow()
            .settings()
            .isEmpty());

    // it stopped at the first decided round
    SessionPlan plan = folder.readState().plan();
    ValidationRounds rule = new ValidationRounds(plan, Set.of());
    assertTrue(rule.decided(trials), log);
    assertFalse(rule.decided(trials.subList(0, trials.size() - 3)), log);
    assertTrue(out.contains("validation decided after " + rounds), out);

    // the pick has its ratio against PGTune-style from the same rounds, and no gain is claimed
    Summary.ResultRow pick =
        summary.results().stream().filter(r -> r.name().equals("reload/tps")).findFirst().get();
    assertNotNull(pick.tpsRatioToPgtune(), pick.toString());
    assertEquals(rounds, pick.tpsRatioToPgtune().pairs());
    assertEquals(rounds, pick.tpsRatio().pairs());
    assertFalse(pick.claimsGain(Goal.TPS), pick.verdict());
    // and the verdict prints that figure, not one of its own pairing
    Summary.Ratio vsPgTune = pick.tpsRatioToPgtune();
    assertTrue(
        pick.verdict()
            .contains(
                String.format(
                    Locale.ROOT,
                    "%.2fx PGTune-style's TPS (%.2f to %.2f)",
                    vsPgTune.estimate(),
                    vsPgTune.low(),
                    vsPgTune.high())),
        pick.verdict());
    String verdict = String.join("\n", Verdict.of(folder, "runs/" + folder.id()).lines());
    assertTrue(
        verdict.contains(
            String.format(
                Locale.ROOT,
                "against PGTune-style: %.2fx TPS (%.2f to %.2f)",
                vsPgTune.estimate(),
                vsPgTune.low(),
                vsPgTune.high())),
        verdict);

    // the latency pick is the tps pick (the search's best proposal): its row carries the tps
    // pick's validated figures and says so, never the proposal's search window (1100 TPS)
    Summary.ResultRow latencyPick =
        summary.results().stream()
            .filter(r -> r.name().equals("reload/latency"))
            .findFirst()
            .orElseThrow();
    assertEquals(pick.settings(), latencyPick.settings(), latencyPick + "\n" + log);
    assertEquals(pick.tpsRatio(), latencyPick.tpsRatio(), latencyPick.verdict());
    assertEquals(pick.tps(), latencyPick.tps(), latencyPick.verdict());
    assertEquals(pick.trials(), latencyPick.trials());
    assertTrue(
        latencyPick.verdict().contains("the same configuration as reload/tps"),
        latencyPick.verdict());
    assertFalse(latencyPick.verdict().contains("not validated"), latencyPick.verdict());

    // resume after kill -9 within the last round: from the logged trials alone (session.json's
    // plan and trials.jsonl cut there), the plan proposes the run the session ran next, and ends
    // validation where it did (running a resumed session is SessionKillResumeTest's)
    SessionPlan stored = SessionFolder.open(folder.dir()).readState().plan();
    for (int cut = plan.searchTrials() + 1; cut <= trials.size(); cut++) {
      var next = stored.next(trials.subList(0, cut));
      if (cut < trials.size()) {
        assertEquals(trials.get(cut).label(), next.orElseThrow().label(), "after trial " + cut);
      } else {
        assertTrue(next.isEmpty(), "validation ends where it did");
      }
    }
  }

  /**
   * The latency pick that is the validated tps pick is known as its twin when the tps pick was
   * validated with its values as a DBA writes them. Two reload-track proposals; the workload makes
   * the second (run 5, whose values the search's design leaves unround) the best for both TPS and
   * latency, so the search's best is the same configuration for both objectives; only reload/tps is
   * validated.
   */
  @Test
  void theUnvalidatedLatencyPickIsTheValidatedTpsPickWhoseValuesWereRounded() throws Exception {
    RecordedSession session =
        RecordedSession.run(
            runs,
            inputs(
                runs.resolve("runs-counted"),
                " if [ \"$s\" = '{}' ]; then b=1000; l=44; elif [ $n -eq 5 ]; then b=1300; l=30;"
                    + " else b=1100; l=40; fi;"),
            plan(2, 3));
    Summary summary = session.summary();
    String out = session.console();
    List<TrialResult> trials = session.trials();
    String log = session.log();
    TrialResult best = trials.get(4);
    assertEquals(Phase.BAYES, best.phase(), log);
    TrialResult validated =
        trials.stream()
            .filter(t -> t.phase() == Phase.VALIDATION && t.label().endsWith(" reload/tps"))
            .findFirst()
            .orElseThrow();
    // the precondition: validation measured the search's best with its values rounded
    assertNotEquals(best.settings(), validated.settings(), log);

    Summary.ResultRow tps = row(summary, "reload/tps");
    Summary.ResultRow latency = row(summary, "reload/latency");
    assertTrue(
        latency.verdict().contains("the same configuration as reload/tps"),
        latency.verdict() + "\n" + log);
    assertFalse(latency.verdict().contains("not validated"), latency.verdict());
    assertEquals(tps.settings(), latency.settings());
    assertEquals(tps.tpsRatio(), latency.tpsRatio());
  }

  private static Summary.ResultRow row(Summary summary, String name) {
    return summary.results().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * A pick that another pick's runs stand for is named after the pick that was measured: here the
   * restart track's best is the reload track's proposal (run 4, the best for TPS and latency), so
   * restart/tps is measured, reload/tps is its twin, and each latency pick, not validated, is the
   * same configuration again. Every row names restart/tps, whose runs it shows.
   */
  @Test
  void everyPickThatIsTheSameConfigurationNamesThePickThatWasMeasured() throws Exception {
    Map<String, Object> m =
        new LinkedHashMap<>(
            inputs(
                    runs.resolve("runs-counted"),
                    " if [ \"$s\" = '{}' ]; then b=1000; l=44; elif [ $n -eq 4 ]; then b=1300;"
                        + " l=30; else b=1100; l=40; fi;")
                .toMap());
    m.put("tracks", List.of("reload", "restart"));
    SessionPlan plan =
        new SessionPlan(
            3,
            List.of(),
            List.of(
                new SessionPlan.BayesTrack(Track.RELOAD, 1),
                new SessionPlan.BayesTrack(Track.RESTART, 1)),
            List.of(
                new SessionPlan.Validation("restart/tps", Track.RESTART),
                new SessionPlan.Validation("reload/tps", Track.RELOAD),
                new SessionPlan.Validation("pgtune", Track.RESTART)),
            3,
            null,
            new SessionPlan.Validating(Goal.TPS, 0.06, 3, 1));
    RecordedSession session = RecordedSession.run(runs, SessionInputs.fromMap(m), plan);
    String log = session.log();

    for (String name : List.of("reload/tps", "reload/latency", "restart/latency")) {
      Summary.ResultRow row =
          session.summary().results().stream()
              .filter(r -> r.name().equals(name))
              .findFirst()
              .orElseThrow();
      assertTrue(
          row.verdict().contains("the same configuration as restart/tps, measured once"),
          name + ": " + row.verdict() + "\n" + log);
    }
  }

  /**
   * A pick that is PGTune-style's configuration (the search's first proposal, run 4, is; here it is
   * the best for TPS) is measured once, as PGTune-style: its row shows PGTune-style's runs and says
   * so, no ratio of PGTune-style against itself, and the verdict names it beside PGTune-style; the
   * runs it leaves go to the latency pick (run 5), which the plan did not validate. A default
   * session once validated PGTune-style and its identical restart pick side by side, a third of its
   * runs, and printed a ratio between them.
   */
  @Test
  void aPickThatIsPgTuneStylesConfigurationIsMeasuredAsItAndItsRunsGoToAStandIn() throws Exception {
    RecordedSession session =
        RecordedSession.run(
            runs,
            inputs(
                runs.resolve("runs-counted"),
                " if [ \"$s\" = '{}' ]; then b=1000; l=44; elif [ $n -eq 4 ]; then b=1300; l=40;"
                    + " elif [ $n -eq 5 ]; then b=1100; l=30; else b=1100; l=40; fi;"),
            plan(2, 3));
    String log = session.log();
    assertTrue(
        session
            .console()
            .contains("validation: reload/latency takes the runs of reload/tps, which is left out"),
        log);
    List<TrialResult> validation =
        session.trials().stream().filter(t -> t.phase() == Phase.VALIDATION).toList();
    assertEquals(
        Set.of("baseline", "pgtune", "reload/latency"),
        validation.stream()
            .map(t -> t.label().replaceAll("^validation round \\d+/\\d+ ", ""))
            .collect(Collectors.toSet()),
        log);
    Summary.ResultRow pgtune = row(session.summary(), "pgtune");
    Summary.ResultRow tps = row(session.summary(), "reload/tps");
    assertTrue(
        tps.verdict().contains("the same configuration as PGTune-style, measured once"),
        tps.verdict() + "\n" + log);
    assertEquals(pgtune.trials(), tps.trials());
    assertEquals(pgtune.tpsRatio(), tps.tpsRatio());
    assertNull(tps.tpsRatioToPgtune(), "PGTune-style against itself");
    assertFalse(tps.verdict().contains("PGTune-style's TPS"), tps.verdict());
    Summary.ResultRow latency = row(session.summary(), "reload/latency");
    assertNotNull(latency.latencyRatio(), latency.verdict());

    List<String> verdict = Verdict.of(session.folder(), "runs/x").details();
    assertTrue(
        verdict.contains(
            "reload/tps: PGTune-style's configuration, which the search found too (measured once,"
                + " as PGTune-style)"),
        verdict.toString());
    assertTrue(
        verdict.stream().noneMatch(d -> d.startsWith("reload/tps against")), verdict.toString());
  }

  /**
   * A latency pick the plan does not validate that is PGTune-style's configuration (run 4, the
   * first proposal) shows PGTune-style's validated runs and says so, where it read "not validated
   * ... best of the search" of a configuration validation had measured.
   */
  @Test
  void anUnvalidatedPickThatIsPgTuneStylesConfigurationShowsPgTuneStylesRuns() throws Exception {
    RecordedSession session =
        RecordedSession.run(
            runs,
            inputs(
                runs.resolve("runs-counted"),
                " if [ \"$s\" = '{}' ]; then b=1000; l=44; elif [ $n -eq 5 ]; then b=1300; l=40;"
                    + " elif [ $n -eq 4 ]; then b=1100; l=30; else b=1100; l=40; fi;"),
            plan(2, 3));
    Summary.ResultRow latency = row(session.summary(), "reload/latency");
    Summary.ResultRow pgtune = row(session.summary(), "pgtune");
    assertTrue(
        latency.verdict().contains("the same configuration as PGTune-style, measured once"),
        latency.verdict() + "\n" + session.log());
    assertEquals(pgtune.trials(), latency.trials());
    assertEquals(pgtune.latencyRatio(), latency.latencyRatio());
  }

  /**
   * A latency pick that is not the validated tps pick says why it was not validated: the plan
   * validates reload/tps and PGTune-style only, and the session may end with time to spare once its
   * ratios are decided, so "the budget left no room" would not be true of it. Three proposals: the
   * first is PGTune-style's configuration, the second the best for TPS, the third for latency.
   */
  @Test
  void aPickThePlanDoesNotValidateSaysWhichPicksThePlanValidates() throws Exception {
    RecordedSession session =
        RecordedSession.run(
            runs,
            inputs(
                runs.resolve("runs-counted"),
                " if [ \"$s\" = '{}' ]; then b=1000; l=44; elif [ $n -eq 5 ]; then b=1300; l=40;"
                    + " elif [ $n -eq 6 ]; then b=1100; l=30; else b=1100; l=40; fi;"),
            plan(3, 3));
    Summary.ResultRow latency =
        session.summary().results().stream()
            .filter(r -> r.name().equals("reload/latency"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        "not validated against the baseline (the budget's plan validates reload/tps and"
            + " PGTune-style only); best of the search",
        latency.verdict(),
        session.console());
  }

  /**
   * A pick left out takes no runs from the plan: when the search finds nothing above the defaults'
   * TPS (its two proposals run at 900 TPS against 1000), reload/tps is the defaults and is left
   * out, and reload/latency, which the plan did not validate and whose pick differs (the second
   * proposal, 2.9 ms against the defaults' 4.4; the first is PGTune-style's configuration), takes
   * its runs, recorded in session.json before validation's first run.
   */
  @Test
  void aLatencyPickTakesTheRunsOfATpsPickThatIsTheDefaults() throws Exception {
    RecordedSession session =
        RecordedSession.run(
            runs,
            inputs(
                runs.resolve("runs-counted"),
                " if [ \"$s\" = '{}' ]; then b=1000; l=44; elif [ $n -eq 5 ]; then b=900; l=29;"
                    + " else b=900; l=30; fi;"),
            plan(2, 4));
    String out = session.console();
    List<TrialResult> trials = session.trials();
    String log = session.log();
    assertTrue(
        out.contains("validation: reload/latency takes the runs of reload/tps, which is left out"),
        log);
    List<TrialResult> validation =
        trials.stream().filter(t -> t.phase() == Phase.VALIDATION).toList();
    // rounds of the defaults, reload/latency and PGTune-style: as many runs as the plan's
    assertEquals(0, validation.size() % 3, log);
    assertTrue(validation.size() >= 9, log);
    assertTrue(validation.stream().noneMatch(t -> t.label().endsWith(" reload/tps")), log);
    List<TrialResult> latencyRuns =
        validation.stream().filter(t -> t.label().endsWith(" reload/latency")).toList();
    assertEquals(validation.size() / 3, latencyRuns.size(), log);
    assertFalse(latencyRuns.get(0).settings().isEmpty(), log);

    Summary.ResultRow latency = row(session.summary(), "reload/latency");
    assertNotNull(latency.latencyRatio(), latency.verdict());
    assertEquals(latencyRuns.size(), latency.latencyRatio().pairs(), latency.verdict());
    assertFalse(latency.verdict().contains("not validated"), latency.verdict());
    assertEquals(latencyRuns.get(0).settings(), latency.settings());
    assertTrue(row(session.summary(), "reload/tps").verdict().startsWith("no change found"));

    // session.json holds the stand-in, and a resume replays the same validation from it
    SessionPlan stored = session.folder().readState().plan();
    assertEquals(
        "reload/tps",
        stored.validation("reload/latency").orElseThrow().inPlaceOf(),
        stored.toString());
    assertEquals(
        plan(2, 4).totalTrials(), stored.totalTrials(), "a stand-in adds no trial to the plan");
    Set<String> leftOut = ValidationLeftOut.of(stored, trials);
    assertEquals(Set.of("reload/tps"), leftOut);
    for (int cut = stored.searchTrials(); cut <= trials.size(); cut++) {
      var next = stored.next(trials.subList(0, cut), leftOut);
      if (cut < trials.size()) {
        assertEquals(trials.get(cut).label(), next.orElseThrow().label(), "after trial " + cut);
      } else {
        assertTrue(next.isEmpty(), "validation ends where it did");
      }
    }
  }
}
