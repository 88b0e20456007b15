package org.pgknob.trial;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.pgknob.PgknobException;
import org.pgknob.server.ForeignLoad;
import org.pgknob.server.PrimaryHazard;
import org.pgknob.server.PrimaryHazards;
import org.pgknob.server.ProcessSampler;
import org.pgknob.server.ResourceSummary;
import org.pgknob.server.SettingRejectedException;
import org.pgknob.server.Target;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;

/**
 * Runs one trial: reset the data, apply the configuration (reload or restart), run the workload's
 * fixed window under the memory guardrail and the process sampler, and record what happened. A
 * window other processes on the host disturbed runs again, after a reset, once the host is quiet
 * ({@link DisturbedRepeat}); the first is kept in the record as the trial's {@link
 * DisturbedWindow}.
 *
 * <p>Every failure becomes data, never an exception: a configuration the safety rules refused is
 * REJECTED without touching the server; one the server refuses or that stops it from starting is
 * REJECTED or CRASHED (the target has already put the previous settings back); a guardrail trip is
 * MEMORY_GUARD or DISK_GUARD and a run over its time TIMEOUT, after both of which the server goes
 * back to its original settings at once. Only conditions that end the session escape as exceptions:
 * the server gone for good, Ctrl-C, and a {@link PrimaryHazard} found before the trial or while its
 * commits stalled ({@link org.pgknob.server.PrimaryHazardException}: the trial says nothing of the
 * configuration, so it is not a result).
 */
public final class TrialRunner {
  /** How a crashed trial's reason begins when the server went away. */
  static final String SERVER_STOPPED = "the server stopped answering";

  private final Target target;
  private final Workload workload;
  private final String database;
  private final String workloadApplicationName;
  private final long memoryLimitBytes;
  private final long diskReserveBytes;
  private final Duration timeout;
  private final DisturbedRepeat repeat;

  /** How often the wait for the workload looks whether the server watch found the server gone. */
  private static final long WATCH_POLL_MILLIS = 500;

  /**
   * @param database the database the workload runs in (the guardrail stops its backends)
   * @param workloadApplicationName the workload's application_name, or null for every backend
   * @param memoryLimitBytes the guardrail's limit on the server's summed PSS
   * @param diskReserveBytes the guardrail stops the trial when the server's data or WAL disk has
   *     less free space than this
   * @param timeout the longest a workload run may take before the trial is a TIMEOUT
   * @param repeat whether a window other processes disturbed runs again once the host is quiet
   */
  public TrialRunner(
      Target target,
      Workload workload,
      String database,
      String workloadApplicationName,
      long memoryLimitBytes,
      long diskReserveBytes,
      Duration timeout,
      DisturbedRepeat repeat) {
    this.target = target;
    this.workload = workload;
    this.database = database;
    this.workloadApplicationName = workloadApplicationName;
    this.memoryLimitBytes = memoryLimitBytes;
    this.diskReserveBytes = diskReserveBytes;
    this.timeout = timeout;
    this.repeat = repeat;
  }

  public TrialResult run(TrialRequest request, TrialListener listener) {
    Instant started = Instant.now();
    Map<String, Double> timings = new LinkedHashMap<>();
    if (request.rejection() != null) {
      return result(request, Status.REJECTED, request.rejection(), null, null, started, timings);
    }
    // A standby that went away, or an archiver that started failing, since the last trial: the
    // reset's own writes would wait for good or pile up WAL, and the run would measure the server's
    // state, not the configuration.
    Optional<PrimaryHazard> hazard = PrimaryHazards.find(target);
    if (hazard.isPresent()) {
      throw hazard.get().stop(request.trial(), "before");
    }
    listener.step("reset");
    long t0 = System.nanoTime();
    timings.put("reset", workload.reset(target));
    listener.step("apply");
    long t1 = System.nanoTime();
    try {
      target.configure(request.settings());
    } catch (SettingRejectedException e) {
      timings.put("apply", seconds(t1));
      Status status =
          switch (e.reason()) {
            case INVALID, SERVER_REFUSED -> Status.REJECTED;
            case DID_NOT_START, DID_NOT_TAKE_EFFECT -> Status.CRASHED;
          };
      return result(request, status, e.getMessage(), null, null, started, timings);
    }
    timings.put("apply", seconds(t1));
    long t2 = System.nanoTime();
    RunOutcome outcome = runWorkload(request, listener);
    timings.put("run", seconds(t2));
    DisturbedWindow setAside = null;
    if (outcome.status == Status.OK
        && outcome.resources.disturbedByOtherProcesses()
        && repeat.waitsNow()) {
      Optional<Repeated> again = runAgainWhenQuiet(request, listener, outcome, timings);
      if (again.isPresent()) {
        setAside = again.get().setAside();
        outcome = again.get().outcome();
      }
    }
    if (outcome.status == Status.OK
        && outcome.resources.available()
        && !outcome.resources.disturbedByOtherProcesses()) {
      repeat.undisturbedWindow();
    }
    timings.put("total", seconds(t0));
    if (outcome.status != Status.OK) {
      // The server must not keep a configuration that ate the machine or hung the workload.
      putOriginalsBack();
    }
    if (outcome.status == Status.DISK_GUARD) {
      // The WAL the configuration let grow stays on disk until a checkpoint recycles it.
      checkpoint();
    }
    return result(
            request,
            outcome.status,
            outcome.reason,
            outcome.result,
            outcome.resources,
            started,
            timings)
        .withDisturbedWindow(setAside);
  }

  /**
   * After a window other processes disturbed: waits for the host to go quiet ({@link QuietWait}),
   * then resets the data and runs the workload again under the same configuration. Empty when the
   * host stayed busy for the longest wait (the disturbed window is kept) or cannot be sampled.
   */
  private Optional<Repeated> runAgainWhenQuiet(
      TrialRequest request, TrialListener listener, RunOutcome first, Map<String, Double> timings) {
    Optional<ProcessSampler> sampler = samplerFor(target);
    if (sampler.isEmpty()) {
      return Optional.empty();
    }
    ResourceSummary r = first.resources;
    long waitSeconds = repeat.longestWait().toSeconds();
    listener.repeating(
        String.format(
            Locale.ROOT,
            "%s (%.1f TPS): waiting up to %d s for the host to go quiet, to run the window again",
            ForeignLoad.note(r).orElseThrow(), // disturbed, so there is a note
            first.result.tps(),
            waitSeconds));
    QuietWait.Outcome waited;
    try (ProcessSampler s = sampler.get()) {
      if (workloadApplicationName != null) {
        s.countOtherClients(database); // as in the window: other databases' clients are foreign
      }
      waited = QuietWait.on(s, repeat.longestWait());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("interrupted while waiting for the host to go quiet", "");
    }
    repeat.waited(waited.quiet());
    double waitedSeconds = waited.waited().toMillis() / 1000.0;
    timings.put("quietWait", waitedSeconds);
    if (!waited.quiet()) {
      listener.repeating(
          String.format(
              Locale.ROOT,
              "the host stayed busy for %d s (other processes up to %.1f cores): the disturbed"
                  + " window stands",
              waitSeconds,
              waited.busyCores()));
      return Optional.empty();
    }
    listener.repeating(
        String.format(Locale.ROOT, "quiet after %.0f s: running the window again", waitedSeconds));
    listener.step("reset");
    timings.put("rerunReset", workload.reset(target));
    long t3 = System.nanoTime();
    RunOutcome again = runWorkload(request, listener);
    timings.put("rerun", seconds(t3));
    return Optional.of(
        new Repeated(
            again,
            new DisturbedWindow(
                first.result.tps(),
                first.result.overall().avgMs(),
                r.foreignCpuAvgCores(),
                r.hostCores(),
                waitedSeconds)));
  }

  /** The second run of a trial, and what its first, disturbed window measured. */
  private record Repeated(RunOutcome outcome, DisturbedWindow setAside) {}

  private record RunOutcome(
      Status status, String reason, WorkloadResult result, ResourceSummary resources) {}

  private RunOutcome runWorkload(TrialRequest request, TrialListener listener) {
    Optional<ProcessSampler> sampler = samplerFor(target);
    ServerWatch watch = new ServerWatch(target);
    Guardrail guardrail = null;
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "pgknob-trial");
              t.setDaemon(true);
              return t;
            });
    try {
      if (sampler.isPresent()) {
        if (workloadApplicationName != null) {
          // pgknob's own driver: every client of the workload uses this one database
          sampler.get().countOtherClients(database);
        }
        guardrail =
            new Guardrail(
                target,
                database,
                workloadApplicationName,
                memoryLimitBytes,
                Guardrail.Figure.PSS,
                Guardrail.DEFAULT_MIN_AVAILABLE_FRACTION,
                diskReserveBytes,
                trip -> {});
        sampler.get().addListener(guardrail);
        sampler.get().start();
      }
      RunListener runListener = new WindowMarks(sampler, listener, watch);
      Future<WorkloadResult> run = executor.submit(() -> workload.run(target, runListener));
      try {
        WorkloadResult result = await(run, watch);
        ResourceSummary resources =
            sampler.map(ProcessSampler::stopWindow).orElse(ResourceSummary.UNAVAILABLE);
        if (guardrail != null && guardrail.tripped()) {
          Guardrail.Trip trip = guardrail.trip().orElseThrow();
          return new RunOutcome(trip.status(), trip.reason(), result, resources);
        }
        return new RunOutcome(Status.OK, "", result, resources);
      } catch (HazardFoundException e) {
        // The workload's backends wait on commits that cannot end: ending them lets the run end,
        // and the session's stop puts the original settings back.
        terminateWorkload();
        run.cancel(true);
        throw e.hazard.stop(request.trial(), "during");
      } catch (ServerLostException e) {
        run.cancel(true); // its connections wait on a dead link: interrupting it closes them
        return new RunOutcome(
            Status.CRASHED,
            SERVER_STOPPED
                + " during the run (nothing committed for "
                + ServerWatch.STALL_SECONDS
                + " s, and a new connection failed: "
                + e.getMessage()
                + ")",
            null,
            sampler.map(ProcessSampler::stopWindow).orElse(ResourceSummary.UNAVAILABLE));
      } catch (TimeoutException e) {
        terminateWorkload();
        run.cancel(true);
        return new RunOutcome(
            Status.TIMEOUT,
            "the workload ran over " + timeout.toSeconds() + " s and was stopped",
            null,
            sampler.map(ProcessSampler::stopWindow).orElse(ResourceSummary.UNAVAILABLE));
      } catch (ExecutionException e) {
        ResourceSummary resources =
            sampler.map(ProcessSampler::stopWindow).orElse(ResourceSummary.UNAVAILABLE);
        if (guardrail != null && guardrail.tripped()) {
          Guardrail.Trip trip = guardrail.trip().orElseThrow();
          return new RunOutcome(trip.status(), trip.reason(), null, resources);
        }
        Throwable cause = e.getCause();
        String message = cause instanceof PgknobException pe ? pe.oneLine() : String.valueOf(cause);
        if (!serverAnswers()) {
          // the workload's driver may have said so already, naming its run
          String reason =
              message.startsWith(SERVER_STOPPED)
                  ? message
                  : SERVER_STOPPED + " during the run: " + message;
          return new RunOutcome(Status.CRASHED, reason, null, resources);
        }
        return new RunOutcome(Status.CRASHED, "the workload failed: " + message, null, resources);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        terminateWorkload();
        run.cancel(true);
        throw new PgknobException("interrupted during a trial", "");
      }
    } finally {
      watch.close();
      if (guardrail != null) {
        guardrail.close();
      }
      sampler.ifPresent(ProcessSampler::close);
      executor.shutdownNow();
    }
  }

  /**
   * The workload's result, waiting at most the trial's timeout, and less when the watch finds the
   * server gone.
   */
  private WorkloadResult await(Future<WorkloadResult> run, ServerWatch watch)
      throws TimeoutException,
          ExecutionException,
          InterruptedException,
          ServerLostException,
          HazardFoundException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        throw new TimeoutException();
      }
      try {
        return run.get(Math.min(left, WATCH_POLL_MILLIS), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        Optional<String> lost = watch.lost();
        if (lost.isPresent()) {
          throw new ServerLostException(lost.get());
        }
        Optional<PrimaryHazard> hazard = watch.hazard();
        if (hazard.isPresent()) {
          throw new HazardFoundException(hazard.get());
        }
      }
    }
  }

  /** The server could not be reached during the run; the message is the probe's. */
  private static final class ServerLostException extends Exception {
    private static final long serialVersionUID = 1L;

    ServerLostException(String message) {
      super(message, null, false, false);
    }
  }

  /** The server's commits stalled during the run, and a {@link PrimaryHazard} says why. */
  private static final class HazardFoundException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient PrimaryHazard hazard;

    HazardFoundException(PrimaryHazard hazard) {
      super(hazard.cause(), null, false, false);
      this.hazard = hazard;
    }
  }

  /** The sampler of the server's current postmaster (it changes with every restart). */
  private static Optional<ProcessSampler> samplerFor(Target target) {
    return target.newSampler(); // local /proc, or the agent's figures for a server elsewhere
  }

  /** Starts and stops the sampler's window with the workload's measured window. */
  private static final class WindowMarks implements RunListener {
    private final Optional<ProcessSampler> sampler;
    private final TrialListener listener;
    private final ServerWatch watch;

    WindowMarks(Optional<ProcessSampler> sampler, TrialListener listener, ServerWatch watch) {
      this.sampler = sampler;
      this.listener = listener;
      this.watch = watch;
    }

    @Override
    public void phase(String name) {
      if (name.equals("window")) {
        sampler.ifPresent(ProcessSampler::startWindow);
      }
      listener.step(name);
    }

    @Override
    public void second(SecondSample sample) {
      watch.second(sample);
      listener.second(sample);
    }
  }

  private void terminateWorkload() {
    try (Connection c = target.connect("postgres");
        Statement st = c.createStatement()) {
      st.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
              + database.replace("'", "''")
              + "' AND pid <> pg_backend_pid() AND backend_type = 'client backend'");
    } catch (SQLException e) {
      // the server may be gone; the caller reports the trial as it stands
    }
  }

  private boolean serverAnswers() {
    try (Connection c = target.connect("postgres");
        Statement st = c.createStatement()) {
      st.execute("SELECT 1");
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  private void checkpoint() {
    try (Connection c = target.connect("postgres");
        Statement st = c.createStatement()) {
      st.execute("CHECKPOINT");
    } catch (SQLException e) {
      // a role without pg_checkpoint: the server's next timed checkpoint frees the WAL instead
    }
  }

  private void putOriginalsBack() {
    try {
      target.configure(Map.of());
    } catch (RuntimeException e) {
      // The session's next configure or its final restore tries again; nothing more to do here.
    }
  }

  private static TrialResult result(
      TrialRequest request,
      Status status,
      String reason,
      WorkloadResult workload,
      ResourceSummary resources,
      Instant started,
      Map<String, Double> timings) {
    return new TrialResult(
        request.trial(),
        request.phase(),
        request.track(),
        request.label(),
        request.config(),
        request.settings(),
        status,
        reason,
        workload,
        resources,
        request.predictedMemoryBytes(),
        started,
        timings);
  }

  private static double seconds(long sinceNanos) {
    return (System.nanoTime() - sinceNanos) / 1e9;
  }
}
