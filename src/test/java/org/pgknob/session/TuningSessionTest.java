package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pgknob.report.ConfExporter;
import org.pgknob.report.ConfFile;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.RestoreFile;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

/**
 * One complete tiny session against a real PostgreSQL 18, both tracks, checked from every side: its
 * phases, its files, and the server it leaves behind. It is the session {@link
 * KilledAndResumedSession} records once per test JVM (killed mid-trial and resumed to its end,
 * which {@link SessionKillResumeTest} checks).
 */
class TuningSessionTest {
  /**
   * The smallest trial budget whose plan has sweeps (see Budget: 3 baseline runs, 3 validation
   * rounds of the defaults, both picks and PGTune-style, and 30% of the 10 left >= 3).
   */
  static final String BUDGET_WITH_SWEEPS = Integer.toString(KilledAndResumedSession.BUDGET);

  private static KilledAndResumedSession session;
  private static SessionFolder folder;
  private static Summary summary;
  private static SessionPlan plan;
  private static List<TrialResult> trials;
  private static String console;

  @BeforeAll
  static void recordOrReuseTheSession() throws Exception {
    session = KilledAndResumedSession.get();
    folder = session.folder;
    summary = session.summary;
    console = session.console;
    plan = session.plan;
    trials = session.trials;
  }

  @Test
  void planHasEveryPhaseWithBothTracks() {
    assertEquals(3, plan.baselineRuns());
    assertFalse(plan.sweeps().isEmpty(), "budget " + BUDGET_WITH_SWEEPS + " leaves room to sweep");
    assertEquals(
        List.of(Track.RELOAD, Track.RESTART),
        plan.bayes().stream().map(SessionPlan.BayesTrack::track).toList());
    assertFalse(plan.validations().isEmpty());
    assertEquals(Integer.parseInt(BUDGET_WITH_SWEEPS), plan.totalTrials());
  }

  @Test
  void logsEveryPlannedTrialOnceInPlanOrder() {
    List<Step> steps = plan.steps();
    // validation stops once decided, and leaves out a pick that is the defaults: at most the plan
    assertTrue(trials.size() <= steps.size(), trials.size() + " trials");
    assertTrue(trials.size() >= plan.searchTrials() + 3 * 2, "3 rounds at least");
    Set<String> leftOut = ValidationLeftOut.of(plan, trials);
    for (int i = 0; i < trials.size(); i++) {
      TrialResult t = trials.get(i);
      // a Bayesian slot may hold a reference or race run: the step as filled after the trials
      // before it
      Step step = plan.next(trials.subList(0, i), leftOut).orElseThrow();
      assertEquals(i + 1, t.trial());
      assertEquals(step.label(), t.label());
      assertEquals(step.phase(), t.phase());
      if (step.phase() != Phase.REFERENCE
          && step.phase() != Phase.RACE
          && step.phase() != Phase.VALIDATION) {
        assertEquals(steps.get(i), step);
      }
    }
    Set<String> phasesRun =
        trials.stream().map(t -> t.phase().label() + "/" + t.track()).collect(Collectors.toSet());
    assertTrue(phasesRun.containsAll(Set.of("baseline/reload", "bayes/reload", "bayes/restart")));
    assertTrue(trials.stream().anyMatch(t -> t.phase() == Phase.SWEEP), "a sweep ran");
    assertTrue(trials.stream().anyMatch(t -> t.phase() == Phase.VALIDATION));
    for (TrialResult t : trials) {
      if (t.phase() == Phase.BASELINE || t.label().endsWith(SessionPlan.BASELINE)) {
        assertEquals(Status.OK, t.status(), () -> "defaults failed: " + t.reason());
        assertTrue(t.workload().tps() > 0);
      }
    }
  }

  @Test
  void writesSessionAndSummaryWithEveryResultRow() {
    SessionState state = folder.readState();
    assertEquals(SessionState.Status.FINISHED, state.status());
    assertEquals(trials.size(), state.progress().trialsDone());
    assertEquals("finished", summary.state());
    assertEquals(summary.results().size(), folder.readSummary().results().size());

    List<String> expected = new ArrayList<>(List.of("defaults"));
    plan.validations().forEach(v -> expected.add(v.name()));
    for (String track : List.of("reload", "restart")) {
      for (String objective : List.of("tps", "latency")) {
        if (!expected.contains(track + "/" + objective)) {
          expected.add(track + "/" + objective);
        }
      }
    }
    if (!expected.contains("pgtune")) {
      expected.add("pgtune"); // its settings, even when the budget left no room to measure it
    }
    assertEquals(expected, summary.results().stream().map(Summary.ResultRow::name).toList());
    Summary.ResultRow validated = row(plan.validations().get(0).name());
    assertTrue(
        validated.tpsRatio() != null
            || validated.verdict().startsWith("not validated: ")
            // a pick equal to the defaults is never measured against itself
            || (validated.settings().isEmpty()
                && validated.verdict().startsWith("no change found")),
        validated::toString);
    if (validated.tpsRatio() != null) {
      assertEquals(3, validated.tpsRatio().pairs());
      assertTrue(validated.tpsRatio().low() <= validated.tpsRatio().high());
    }
    assertEquals(trials.size(), summary.budget().trialsRun());
    assertTrue(console.contains("TPS ratio (95% CI)"), console);
  }

  /**
   * summary.json says, per track, which knobs its Bayesian phase searched and why, and every knob a
   * Bayesian trial of the track set is among them.
   */
  @Test
  void summaryListsEachTracksSearchedKnobsWithReasons() {
    List<Summary.KnobChoice> selection = folder.readSummary().knobSelection();
    for (Track track : Track.values()) {
      Set<String> searched =
          selection.stream()
              .filter(c -> c.track() == track && c.searched())
              .map(Summary.KnobChoice::knob)
              .collect(Collectors.toSet());
      assertFalse(searched.isEmpty(), track + ": " + selection);
      for (TrialResult t : trials) {
        if (t.phase() == Phase.BAYES && t.track() == track) {
          assertTrue(
              searched.containsAll(t.config().keySet()),
              "trial " + t.trial() + " " + t.config() + " outside " + searched);
        }
      }
    }
    assertTrue(selection.stream().noneMatch(c -> c.reason().isBlank()), selection::toString);
  }

  /**
   * summary.json's model ranking covers exactly the knobs the last track searched, PGTune-style's
   * among them: a model over fewer knobs left out every trial that set the others, and had too few
   * observations to exist in a default session (its report read "No model yet").
   */
  @Test
  void theModelRanksEveryKnobTheLastTrackSearched() {
    Track last = plan.bayes().get(plan.bayes().size() - 1).track();
    Set<String> searched =
        summary.knobSelection().stream()
            .filter(c -> c.track() == last && c.searched())
            .map(Summary.KnobChoice::knob)
            .collect(Collectors.toSet());
    Set<String> ranked =
        summary.modelRanking().stream()
            .map(Summary.KnobImportance::knob)
            .collect(Collectors.toSet());
    assertEquals(searched, ranked, summary.modelRanking()::toString);
  }

  @Test
  void writesExportsOfEveryOptimumThatChangesSomethingAndTheyRoundTrip() throws Exception {
    for (Summary.ResultRow r : summary.results()) {
      if (r.track() == null) {
        continue;
      }
      if (r.settings().isEmpty()) {
        // A pick that changes nothing is "no change found": never exported as a recommendation.
        for (ConfExporter.Format f : ConfExporter.Format.values()) {
          Path file = folder.bestFile(r.track(), r.objective(), f.extension());
          assertFalse(Files.exists(file), file::toString);
        }
        continue;
      }
      for (ConfExporter.Format f : ConfExporter.Format.values()) {
        Path file = folder.bestFile(r.track(), r.objective(), f.extension());
        assertTrue(Files.size(file) > 0, file::toString);
      }
      Path conf = folder.bestFile(r.track(), r.objective(), "conf");
      assertEquals(
          r.settings().keySet(),
          ConfFile.parse(conf.toString(), Files.readString(conf)).keySet(),
          conf::toString);
    }
  }

  @Test
  void writesTheReportWithCharts() throws Exception {
    assertTrue(Files.readString(folder.file("report.html")).contains("<html"));
    List<Path> charts;
    try (Stream<Path> files = Files.list(folder.file("charts"))) {
      charts = files.filter(p -> p.toString().endsWith(".png")).toList();
    }
    assertFalse(charts.isEmpty());
    for (Path chart : charts) {
      byte[] head;
      try (var in = Files.newInputStream(chart)) {
        head = in.readNBytes(4);
      }
      assertEquals(0x89, head[0] & 0xff, chart::toString);
      assertEquals("PNG", new String(head, 1, 3, java.nio.charset.StandardCharsets.US_ASCII));
    }
  }

  @Test
  void leavesTheServerWithItsOriginalSettings() {
    assertEquals(RestoreFile.RESTORED, session.restoreState);
    assertEquals(session.autoConfBefore, session.autoConfAfter);
    assertEquals(
        Set.of(), SessionPostgres.differences(session.settingsBefore, session.settingsAfter));
  }

  private static Summary.ResultRow row(String name) {
    return summary.results().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }
}
