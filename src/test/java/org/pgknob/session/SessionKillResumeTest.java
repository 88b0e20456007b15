package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Track;
import org.pgknob.server.RestoreFile;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.TrialResult;

/**
 * kill -9 of {@code pgknob tune} while a Bayesian trial of the restart track runs with its
 * configuration applied, then a resume: the session finishes as planned, proposes what the killed
 * process proposed, and leaves the server's original settings. The session is the one {@link
 * KilledAndResumedSession} records once per test JVM ({@link TuningSessionTest} checks the rest of
 * it).
 */
class SessionKillResumeTest {
  @Test
  void sessionKilledMidTrialResumesFinishesAndPutsTheOriginalSettingsBack() throws Exception {
    KilledAndResumedSession s = KilledAndResumedSession.get();
    assertTrue(
        s.beforeKill.stream().anyMatch(t -> t.track() == Track.RELOAD),
        "killed after the reload track's trials: " + s.beforeKill.size());
    assertEquals(SessionState.Status.RUNNING, s.statusAtKill, "nobody marked it");
    assertTrue(
        s.lockTakenOver.startsWith("pgknob: took over the lock of pid ")
            && s.lockTakenOver.contains("pgknob tune")
            && s.lockTakenOver.contains("which is no longer running"),
        s.lockTakenOver);
    assertFalse(
        s.alterSystemAtKill.isEmpty(), "the killed trial's settings are still on the server");
    assertEquals(
        s.autoConfBefore,
        s.autoConfOnResume,
        "resume puts the server back before it reads its settings");

    SessionState state = s.folder.readState();
    assertEquals(SessionState.Status.FINISHED, state.status());
    List<TrialResult> trials = s.trials;
    List<Step> steps = state.plan().steps();
    assertEquals(KilledAndResumedSession.BUDGET, steps.size());
    // validation leaves out a pick that is the defaults: every trial it planned, at most
    assertTrue(
        trials.size() <= steps.size() && trials.size() >= state.plan().searchTrials() + 3 * 2,
        "every trial once: " + trials.size());
    Set<String> leftOut = ValidationLeftOut.of(state.plan(), trials);
    assertTrue(state.plan().next(trials, leftOut).isEmpty(), "nothing left");
    for (int i = 0; i < trials.size(); i++) {
      assertEquals(i + 1, trials.get(i).trial());
      // a Bayesian slot may hold a reference or race run: the step as filled after the trials
      // before it
      assertEquals(
          state.plan().next(trials.subList(0, i), leftOut).orElseThrow().label(),
          trials.get(i).label());
    }
    assertEquals(
        s.beforeKill, trials.subList(0, s.beforeKill.size()), "earlier trials kept as they were");
    TrialResult rerun = trials.get(s.inFlight - 1);
    assertTrue(rerun.label().startsWith("bayes restart "), rerun.label());
    assertEquals(
        s.proposedBeforeKill,
        KilledAndResumedSession.changes(rerun.settings()),
        "the resumed session proposes what the killed one was running");

    assertEquals(s.autoConfBefore, s.autoConfAfter);
    assertEquals(Set.of(), SessionPostgres.differences(s.settingsBefore, s.settingsAfter));
    assertEquals(RestoreFile.RESTORED, s.restoreState);
  }
}
