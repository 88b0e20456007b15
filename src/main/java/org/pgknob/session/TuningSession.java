package org.pgknob.session;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pgknob.BuildInfo;
import org.pgknob.PgknobException;
import org.pgknob.report.Labels;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.server.PrimaryHazardException;
import org.pgknob.server.ServerFacts;
import org.pgknob.server.Target;
import org.pgknob.trial.DisturbedRepeat;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialListener;
import org.pgknob.trial.TrialRequest;
import org.pgknob.trial.TrialResult;
import org.pgknob.trial.TrialRunner;
import org.pgknob.workload.Progress;
import org.pgknob.workload.SecondSample;

/**
 * One tuning session, top to bottom: setup, then every step of its plan as a trial (baseline,
 * sweeps, Bayesian iterations per track, validation), then results, exports and the report, with
 * the server's original settings restored at the end.
 *
 * <p>Each trial is appended to trials.jsonl as it ends, and the plan in session.json says which
 * step comes next, so {@link #resume} continues a session stopped at any point from its folder.
 */
public final class TuningSession {
  /** The workload's application_name: the guardrail and timeouts stop only its backends. */
  private final SessionFolder folder;

  // Both change once, when --duration auto chooses the window after the baselines.
  private SessionInputs inputs;
  private final Target target;
  private final ProgressPrinter progress;
  private final Clock clock;
  private SessionState state;
  private SessionContext context;
  // Set by the shutdown hook (Ctrl-C, SIGTERM), which restores the server while this session's
  // thread runs on: from then on that thread records, prints and proposes nothing.
  private volatile boolean stoppedBySignal;
  private Duration serverWait = ServerWait.DEFAULT;
  private DisturbedRepeat repeat = DisturbedRepeat.never();

  private TuningSession(
      SessionFolder folder,
      SessionInputs inputs,
      Target target,
      ProgressPrinter progress,
      Clock clock,
      SessionState state) {
    this.folder = folder;
    this.inputs = inputs;
    this.target = target;
    this.progress = progress;
    this.clock = clock;
    this.state = state;
  }

  /**
   * Sets up a new session in {@code folder}: records the machine, server and inputs, checks the
   * search space and safety rules against the server, builds the workload's database if missing,
   * measures what a connection costs, and fixes the plan.
   */
  public static TuningSession create(
      SessionFolder folder,
      SessionInputs inputs,
      Target target,
      ProgressPrinter progress,
      Progress buildProgress,
      Clock clock) {
    return create(folder, inputs, null, target, progress, buildProgress, clock);
  }

  /**
   * Sets up a new session as {@link #create(SessionFolder, SessionInputs, Target, ProgressPrinter,
   * Progress, Clock)} does, with the plan given (a comparison: baseline and validation rounds
   * only), or planned from the budget when {@code givenPlan} is null.
   */
  public static TuningSession create(
      SessionFolder folder,
      SessionInputs inputs,
      SessionPlan givenPlan,
      Target target,
      ProgressPrinter progress,
      Progress buildProgress,
      Clock clock) {
    // A role that is not a superuser learns every GRANT the session needs before anything
    // happens, not at trial 1 (or as a request for --ram, because it cannot see the data folder).
    SessionPrivileges.require(inputs, givenPlan, target);
    TuningSession session = new TuningSession(folder, inputs, target, progress, clock, null);
    session.context = SessionContext.open(inputs, target);
    progress.note("== setup: " + target.describe());
    target.memoryGuardNotice().ifPresent(progress::note);
    session.context.workload().prepare(target, buildProgress);
    session.context.measureConnectionCost(target);
    session.context.measureWalRoom();
    progress.note(
        DiskLine.of(
            session.context.walRoom(), session.context.rules(), session.context.serverSettings()));
    SessionPlan plan =
        givenPlan != null ? givenPlan : SessionPlanning.plan(session.context, inputs);
    ServerFacts facts = session.context.facts();
    session.state =
        new SessionState(
            folder.id(),
            BuildInfo.version(),
            SessionState.Status.RUNNING,
            clock.instant(),
            clock.instant(),
            inputs.toMap(),
            inputs.seed(),
            session.context.machine(),
            facts.serverVersion(),
            target.describe(),
            String.valueOf(facts.dataDirectory()),
            folder.file(SessionFolder.RESTORE_FILE).toString(),
            session.context.settingFacts(),
            plan,
            new SessionState.Progress("setup", 0, plan.totalTrials(), ""));
    folder.writeState(session.state);
    return session;
  }

  /**
   * Reopens a stopped session: the same inputs and plan, against the same server (checked).
   *
   * @throws PgknobException when the session finished already or the server changed
   */
  public static TuningSession resume(
      SessionFolder folder,
      Target target,
      ProgressPrinter progress,
      Progress buildProgress,
      Clock clock) {
    SessionState state = folder.readState();
    SessionInputs inputs = SessionInputs.fromMap(state.inputs());
    ServerFacts facts = target.facts();
    state.checkSameTarget(facts.serverVersion(), String.valueOf(facts.dataDirectory()));
    // A kill mid-trial leaves that trial's settings on the server; the session reads the server's
    // settings as its originals (safety rules, PGTune), so put them back first.
    target.restoreOriginals();
    TuningSession session = new TuningSession(folder, inputs, target, progress, clock, state);
    session.context = SessionContext.open(inputs, target);
    progress.note("== resume " + folder.id() + ": " + target.describe());
    target.memoryGuardNotice().ifPresent(progress::note);
    session.context.workload().prepare(target, buildProgress);
    session.context.measureConnectionCost(target);
    session.context.measureWalRoom();
    progress.note(
        DiskLine.of(
            session.context.walRoom(), session.context.rules(), session.context.serverSettings()));
    session.state = state.withStatus(SessionState.Status.RUNNING, "resumed", clock.instant());
    folder.writeState(session.state);
    return session;
  }

  public SessionFolder folder() {
    return folder;
  }

  /**
   * How long the session waits for a server that stopped answering mid-trial before it stops
   * (--server-wait; 5 minutes unless given). 0 stops at once.
   */
  public TuningSession waitingForServer(Duration longest) {
    if (longest.isNegative()) {
      throw new IllegalArgumentException("a negative wait: " + longest);
    }
    this.serverWait = longest;
    return this;
  }

  /**
   * Makes a trial whose window other processes disturbed wait for the host to go quiet, at most
   * {@code longest}, and run its window again (--quiet-wait); 0, and the default here, keep the
   * disturbed window.
   */
  public TuningSession repeatingDisturbed(Duration longest) {
    this.repeat = DisturbedRepeat.waitingAtMost(longest);
    return this;
  }

  /**
   * Runs the plan's remaining steps, then computes the results, writes summary.json, the exports
   * and the report, and restores the server's original settings (unless asked to keep the best).
   * However it ends, the workload's pooled connections are closed: the session leaves no connection
   * of its own on the server.
   */
  public Summary run() {
    try {
      return runPlan();
    } finally {
      context.workload().close(); // the current one: --duration auto replaces the first
    }
  }

  private Summary runPlan() {
    SessionPlan plan = state.plan();
    List<TrialResult> logged = new ArrayList<>(folder.trials().read().trials());
    progress.alreadyLogged(inputs.tracks(), inputs.objective(), logged);
    TrialRunner runner = runner();
    StepProposer proposer = new StepProposer(context, inputs, plan);
    ServerWait wait = new ServerWait(target, serverWait, progress, clock, folder.dir());
    double trialSeconds = SessionPlanning.estimatedTrialSeconds(context, inputs);
    if (windowToChoose()) {
      progress.note(
          "window: "
              + inputs.windowSeconds()
              + " s for the baselines, then chosen from their noise (--duration auto); the plan"
              + " below is remade then");
    }
    PlanSummary.linesOnResume(plan, logged.size(), trialSeconds, clock.instant())
        .forEach(progress::note);
    // A resume's first time left: the trials it counts (ValidationTime.expectedTrials) are what
    // the logged trials' length buys, so it counts them at that length, not at the estimate (it
    // printed "about 9 min left" under a plan line's "about 6 min").
    progress.clock(
        clock, logged.size() + 1, inputs.observedTrialSeconds(logged).orElse(trialSeconds));
    Phase lastPhase = null;
    Set<String> sameAsDefaults = null;
    while (true) {
      if (stoppedBySignal) {
        throw new StoppedBySignalException();
      }
      if (windowToChoose() && logged.size() >= plan.baselineRuns()) {
        SessionPlan before = plan;
        plan = chooseWindow(plan, logged);
        runner = runner();
        proposer = new StepProposer(context, inputs, plan);
        trialSeconds = SessionPlanning.estimatedTrialSeconds(context, inputs);
        if (plan != before) {
          PlanSummary.lines(plan, logged.size(), trialSeconds, clock.instant())
              .forEach(progress::note);
          // the baselines' lengths, counted at the chosen window, say more than the estimate
          progress.trialsFrom(
              logged.size() + 1, inputs.observedTrialSeconds(logged).orElse(trialSeconds));
        }
        double observed = inputs.observedTrialSeconds(logged).orElse(trialSeconds);
        MeasurementReport.detectableEffect(logged, plan, inputs, observed)
            .ifPresent(line -> progress.note("  " + line));
      }
      if (sameAsDefaults == null && ValidationStart.due(plan, logged)) {
        ValidationStart start = ValidationStart.of(plan, proposer, inputs, logged, trialSeconds);
        start.notes().forEach(progress::note);
        if (start.plan() != plan) { // before validation's first run, so a resume follows it
          state = state.withPlan(start.plan(), clock.instant());
          folder.writeState(state);
        }
        plan = start.plan();
        proposer = start.proposer();
        sameAsDefaults = start.leftOut();
      }
      Optional<Step> next = plan.next(logged, sameAsDefaults == null ? Set.of() : sameAsDefaults);
      if (next.isEmpty()) {
        break;
      }
      Step step = next.get();
      boolean inSlot = step.phase() == Phase.REFERENCE || step.phase() == Phase.RACE;
      // the console's counts leave out the validation runs of a pick that is the defaults
      Set<String> leftOut = sameAsDefaults == null ? Set.of() : sameAsDefaults;
      int mostTrials = plan.mostTrials(leftOut);
      if (!inSlot && step.phase() != lastPhase) {
        progress.phase(step.phase(), phaseDetail(plan, step.phase(), leftOut));
        lastPhase = step.phase();
        if (step.phase() == Phase.VALIDATION) {
          proposer
              .picks(logged)
              .forEach(
                  (name, pick) -> {
                    if (pick.changed()) {
                      progress.note("  " + name + " pick simplified: " + pick.describe());
                    }
                  });
        }
      }
      if (step.phase() == Phase.BAYES && step.index() == 1) {
        List<String> knobs = proposer.bayesSpace(step, logged).names();
        progress.note(
            "  the "
                + step.track()
                + " track searches "
                + knobs.size()
                + " knobs: "
                + String.join(", ", knobs));
      }
      TrialRequest request = proposer.request(step, logged);
      progress.trialStarted(
          step.trial(),
          mostTrials,
          ValidationTime.expectedTrials(plan, logged, mostTrials),
          step.label(),
          request.settings());
      TrialResult result = runTrial(runner, request, wait);
      synchronized (this) {
        // A trial the hook's restore cut short (its restart ends the workload's connections)
        // measured pgknob itself, not the configuration: it is not logged, and a resume runs it.
        if (stoppedBySignal) {
          throw new StoppedBySignalException();
        }
        checkObjectiveReported(result); // not logged: a resume runs it with the command fixed
        folder.trials().append(result);
        logged.add(result);
        progress.trialFinished(result);
        state =
            state.withProgress(
                new SessionState.Progress(
                    step.phase().label(), logged.size(), plan.totalTrials(), ""),
                clock.instant());
        folder.writeState(state);
      }
      checkBaselineRuns(plan, logged);
      if (step.phase() == Phase.VALIDATION) {
        new ValidationRounds(plan, leftOut).droppedNote(logged).ifPresent(progress::note);
      }
      if (logged.size() == plan.baselineRuns()) {
        MeasurementReport.checkStable(logged).ifPresent(progress::note);
        if (!windowToChoose()) { // else printed with the window chosen, next
          MeasurementReport.detectableEffect(logged, plan, inputs, trialSecondsSoFar(logged))
              .ifPresent(line -> progress.note("  " + line));
        }
      }
    }
    if (plan.validating() == null) {
      ValidationEnd.fixedRounds(logged).ifPresent(progress::note);
    } else if (sameAsDefaults != null) {
      ValidationEnd.line(plan, logged, sameAsDefaults).ifPresent(progress::note);
      ValidationNoise.line(logged, plan.validating().objective()).ifPresent(progress::note);
    }
    return finish(logged, wait);
  }

  private TrialRunner runner() {
    return new TrialRunner(
        target,
        context.workload(),
        context.workloadDatabase(),
        inputs.workload().applicationName(),
        context.memoryLimitBytes(),
        context.rules().diskReserveBytes(),
        trialTimeout(),
        repeat);
  }

  /** Whether --duration auto has yet to choose the window. */
  private boolean windowToChoose() {
    return inputs.autoWindow() != null && !inputs.autoWindow().chosen();
  }

  /**
   * --duration auto after the baselines: chooses the window from their noise, remakes the plan for
   * it (the baselines stay its first steps), and records both in session.json before the next
   * trial, so a resume goes on with them.
   */
  private SessionPlan chooseWindow(SessionPlan plan, List<TrialResult> logged) {
    WindowDecision d =
        WindowDecision.after(
            logged.subList(0, plan.baselineRuns()), inputs, context.databaseBytes());
    boolean changed = d.windowSeconds() != inputs.windowSeconds();
    inputs = inputs.withChosenWindow(d.windowSeconds(), d.reason());
    context.workload().close(); // the new context brings a workload for the chosen window
    context = context.withInputs(inputs);
    SessionPlan remade = changed ? SessionPlanning.plan(context, inputs, d.shares()) : plan;
    state = state.withChosenWindow(inputs.toMap(), remade, clock.instant());
    folder.writeState(state);
    progress.note(d.reason());
    return remade;
  }

  /**
   * Runs one trial. When it fails because the server cannot be reached (its run, reset,
   * configuration or restart), waits for the server ({@link ServerWait}): back within the wait, the
   * original settings are restored and the trial is returned as failed with its cause; else it is
   * logged, the session marked stopped, and {@link ServerUnreachableException} thrown.
   */
  private TrialResult runTrial(TrialRunner runner, TrialRequest request, ServerWait wait) {
    java.time.Instant started = clock.instant();
    TrialResult result;
    // When the trial lost the server: --server-wait counts from then, so the steps that fail on
    // the way (putting its settings back, the probe below) come out of the wait the user gave,
    // not on top of it.
    java.time.Instant since;
    try {
      result = runner.run(request, new LiveTps(progress, inputs.windowSeconds()));
      Double seconds = result.timingsSeconds().get("total"); // reset to the run's end
      since = seconds == null ? clock.instant() : started.plusMillis(Math.round(seconds * 1000));
    } catch (PrimaryHazardException e) {
      throw e; // the server answers: it is in a state no trial should run in
    } catch (PgknobException e) {
      since = clock.instant();
      if (wait.unreachable().isEmpty()) {
        throw e;
      }
      result = TrialResult.failedBeforeRun(request, e.oneLine(), started);
    }
    if (!result.mayHaveLostTheServer()) {
      return result; // it ran, or the server answered to refuse it
    }
    Optional<String> lost = wait.unreachable();
    if (lost.isEmpty()) {
      return result;
    }
    try {
      return wait.await(since, lost.get()).explain(result);
    } catch (ServerUnreachableException e) {
      folder.trials().append(wait.explainGaveUp(result, since));
      markStopped(SessionState.Status.STOPPED, e.getMessage());
      throw e;
    }
  }

  /**
   * Ends the session when the defaults themselves cannot run: every later trial would fail the same
   * way, and there is no noise level to judge anything by.
   */
  private static void checkBaselineRuns(SessionPlan plan, List<TrialResult> logged) {
    if (logged.size() != plan.baselineRuns()) {
      return;
    }
    List<TrialResult> ok = logged.stream().filter(TrialResult::isOk).toList();
    if (ok.size() >= 2) {
      return;
    }
    TrialResult failed = logged.stream().filter(t -> !t.isOk()).findFirst().orElseThrow();
    throw new PgknobException(
        (ok.isEmpty() ? "every" : "all but one")
            + " baseline run on the server's defaults failed: "
            + failed.reason(),
        "fix the workload (see trials.jsonl in the session folder), then start a new session");
  }

  /**
   * Ends a latency session at its first run whose workload reported no latency (a command that
   * prints {@code {"value": N}} alone), before logging it: its 0 ms is no measurement to search on,
   * and the results failed on it with an internal error after the whole budget.
   */
  private void checkObjectiveReported(TrialResult result) {
    if (inputs.objective() == Goal.LATENCY
        && result.isOk()
        && result.workload() != null
        && !(Objectives.value(result, Goal.LATENCY) > 0)) {
      throw new PgknobException(
          "--objective latency, but the workload reported no latency (trial "
              + result.trial()
              + " gave a value without \"latency_ms\")",
          "make the command print \"latency_ms\" with its value, or tune --objective tps");
    }
  }

  private double trialSecondsSoFar(List<TrialResult> logged) {
    return inputs
        .observedTrialSeconds(logged)
        .orElse(
            Budget.estimateTrialSeconds(
                context.databaseBytes(), inputs.rampupSeconds(), inputs.windowSeconds(), true));
  }

  private Summary finish(List<TrialResult> logged, ServerWait wait) {
    SessionResults results = new SessionResults(context, inputs, state.plan(), logged);
    String restored;
    try {
      restored = endOnServer(results);
    } catch (PgknobException e) {
      Optional<String> lost = wait.unreachable();
      if (lost.isEmpty()) {
        throw e;
      }
      try {
        wait.await(clock.instant(), lost.get()); // puts the originals back when it answers
      } catch (ServerUnreachableException gaveUp) {
        markStopped(SessionState.Status.STOPPED, gaveUp.getMessage());
        throw gaveUp;
      }
      restored = endOnServer(results);
    }
    state = state.withStatus(SessionState.Status.FINISHED, "", clock.instant());
    Summary summary = results.summary(state, restored);
    folder.writeSummary(summary);
    folder.writeState(state);
    SessionExport.writeAll(folder);
    // Decided from the folder as written, as `pgknob report` and the golden tests decide it.
    Verdict verdict = Verdict.of(VerdictFacts.of(folder, userDir(folder)));
    summary = summary.withVerdict(verdict.toSummary());
    folder.writeSummary(summary);
    verdict.lines().forEach(progress::note);
    progress.note("== results");
    progress.note(MeasurementReport.lines(logged));
    progress.note(org.pgknob.report.ConsoleResultTable.format(summary));
    try {
      Path report = org.pgknob.report.ReportWriter.write(folder.dir());
      progress.note("report: " + report);
    } catch (PgknobException e) {
      progress.note("the report could not be written: " + e.oneLine());
    }
    return summary;
  }

  /** Puts the original settings back, or leaves the best applied with --apply best. */
  private String endOnServer(SessionResults results) {
    if (inputs.apply() == ApplyAtEnd.BEST) {
      Optional<Map<String, String>> best = results.bestSettings();
      if (best.isPresent()) {
        target.configure(best.get());
        return "kept the best configuration applied (--apply best): " + best.get();
      }
    }
    var report = target.restoreOriginals();
    return Labels.restored(report.changes().size());
  }

  /**
   * Marks the session stopped by Ctrl-C or SIGTERM, from the shutdown hook, before it restores the
   * server: the session's thread then logs no more trials (the one running when the signal came is
   * left for a resume to run again), prints nothing, and ends with {@link
   * StoppedBySignalException}.
   */
  public synchronized void stopBySignal() {
    stoppedBySignal = true;
    progress.silence();
    markStopped(SessionState.Status.STOPPED, "stopped by Ctrl-C or SIGTERM");
  }

  /** Whether {@link #stopBySignal} was called. */
  public boolean stoppedBySignal() {
    return stoppedBySignal;
  }

  /** Marks the session stopped (Ctrl-C, an error); the caller restores the server. */
  public synchronized void markStopped(SessionState.Status status, String message) {
    if (state != null) {
      state = state.withStatus(status, message, clock.instant());
      folder.writeState(state);
    }
  }

  /**
   * Writes the verdict of a session that did not finish (after {@link #markStopped} and the
   * restore) into summary.json, and returns it for the console. A later resume writes the full
   * summary over it.
   *
   * @param restored what was put back on the server, or null when restoring failed
   */
  public Optional<Verdict> recordUnfinished(String restored) {
    if (state == null || state.status() == SessionState.Status.FINISHED) {
      return Optional.empty();
    }
    Verdict verdict =
        Verdict.unfinished(
            state.status() == SessionState.Status.FAILED,
            userDir(folder),
            state.progress().trialsDone(),
            state.plan().totalTrials(),
            state.progress().message(),
            restored);
    folder.writeSummary(
        new Summary(
            state.id(),
            state.status().label(),
            state.createdAt(),
            state.updatedAt(),
            state.machine(),
            state.postgresVersion(),
            state.target(),
            inputs.workloadDescription(),
            new Summary.Budget(
                state.plan().totalTrials(),
                state.progress().trialsDone(),
                0,
                java.time.Duration.between(state.createdAt(), state.updatedAt()).toMillis()
                    / 1000.0),
            null,
            List.of(),
            List.of(),
            List.of(),
            restored == null ? "restoring failed" : restored,
            List.of(),
            List.of(),
            List.of(),
            verdict.toSummary(),
            List.of()));
    return Optional.of(verdict);
  }

  /**
   * The folder as the user types it in the next commands: relative to the working folder when it
   * lies inside it (runs/ID), else the absolute path.
   */
  static String userDir(SessionFolder folder) {
    java.nio.file.Path dir = folder.dir().toAbsolutePath().normalize();
    java.nio.file.Path here = java.nio.file.Path.of("").toAbsolutePath().normalize();
    return dir.startsWith(here) ? here.relativize(dir).toString() : dir.toString();
  }

  private Duration trialTimeout() {
    // The run itself plus generous room for connecting, stopping users and the checkpoint.
    return Duration.ofSeconds(3L * (inputs.rampupSeconds() + inputs.windowSeconds()) + 120);
  }

  /** "12 trials": the plan's steps of {@code phase}, without the runs of the picks left out. */
  private static String phaseDetail(SessionPlan plan, Phase phase, Set<String> leftOut) {
    long n =
        phase == Phase.VALIDATION
            ? plan.mostTrials(leftOut) - plan.searchTrials()
            : plan.steps().stream().filter(s -> s.phase() == phase).count();
    return n + " trial" + (n == 1 ? "" : "s");
  }

  /** Live TPS of each second of the measured window. */
  private static final class LiveTps implements TrialListener {
    private final ProgressPrinter progress;
    private final int windowSeconds;
    private int windowSecond;

    LiveTps(ProgressPrinter progress, int windowSeconds) {
      this.progress = progress;
      this.windowSeconds = windowSeconds;
    }

    @Override
    public void repeating(String what) {
      progress.note("  " + what);
      windowSecond = 0;
    }

    @Override
    public void second(SecondSample sample) {
      if (sample.measured()) {
        windowSecond++;
        progress.liveTps(windowSecond, windowSeconds, sample.committed());
      }
    }
  }
}
