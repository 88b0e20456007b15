package org.pgknob.workload.pgbench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.pgknob.PgknobException;
import org.pgknob.target.Target;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.TransactionProfile;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.driver.DriverConnections;
import org.pgknob.workload.driver.RunControl;
import org.pgknob.workload.driver.SqlFailures;
import org.pgknob.workload.driver.TimelineSampler;
import org.pgknob.workload.driver.WindowCheckpoint;

/**
 * One pgbench run: clients on their own connections in the simple query protocol (as {@code
 * pgbench} by default), a ramp-up, the measured window, a bounded stop, and a CHECKPOINT that
 * accounts for the window's deferred writes.
 */
final class PgbenchDriver {
  static final String APPLICATION_NAME = "pgknob pgbench";
  static final int CLIENT_SOCKET_TIMEOUT_SECONDS = 120;
  static final int MONITOR_SOCKET_TIMEOUT_SECONDS = 900;
  static final int STOP_TIMEOUT_SECONDS = 30;

  private final PgbenchSpec spec;
  private final int rampupSeconds;
  private final int windowSeconds;

  PgbenchDriver(PgbenchSpec spec, int rampupSeconds, int windowSeconds) {
    this.spec = spec;
    this.rampupSeconds = rampupSeconds;
    this.windowSeconds = windowSeconds;
  }

  WorkloadResult run(Target target, RunListener listener) {
    List<Connection> connections = new ArrayList<>();
    ScheduledExecutorService sampling =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "pgbench-sampler");
              t.setDaemon(true);
              return t;
            });
    RunControl control = new RunControl(spec.users());
    Properties simple = new Properties();
    simple.setProperty("preferQueryMode", "simple");
    try (Connection monitor =
        DriverConnections.open(
            target,
            spec.database(),
            MONITOR_SOCKET_TIMEOUT_SECONDS,
            APPLICATION_NAME,
            new Properties())) {
      WindowCheckpoint checkpoint = new WindowCheckpoint(monitor);
      listener.phase("connect");
      List<ClientStats> stats = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      SplittableRandom seeds = new SplittableRandom();
      for (int u = 0; u < spec.users(); u++) {
        Connection c =
            DriverConnections.open(
                target, spec.database(), CLIENT_SOCKET_TIMEOUT_SECONDS, APPLICATION_NAME, simple);
        connections.add(c);
        ClientStats s = new ClientStats();
        stats.add(s);
        Thread t =
            new Thread(
                new PgbenchClient(
                    c, spec.script().transaction(spec.scale()), control, s, seeds.split()),
                "pgbench-client-" + (u + 1));
        t.setDaemon(true);
        threads.add(t);
      }
      TimelineSampler sampler =
          new TimelineSampler(stats, () -> control.requestedPhase() == RunControl.WINDOW, listener);
      listener.phase("rampup");
      threads.forEach(Thread::start);
      sampling.scheduleAtFixedRate(sampler, 1, 1, TimeUnit.SECONDS);
      control.sleep(rampupSeconds * 1000L);
      failIfAClientFailed(control);

      control.request(RunControl.WINDOW);
      long windowStarted = System.nanoTime();
      listener.phase("window");
      if (!control.awaitPhase(RunControl.WINDOW, CLIENT_SOCKET_TIMEOUT_SECONDS * 1000L + 5000)) {
        failIfAClientFailed(control);
        throw stalled(control.usersNotIn(RunControl.WINDOW), "did not finish a transaction");
      }
      failIfAClientFailed(control);
      WindowCheckpoint.Counters atStart = checkpoint.read();
      control.sleep(windowSeconds * 1000L - (System.nanoTime() - windowStarted) / 1_000_000);
      failIfAClientFailed(control);

      control.request(RunControl.STOP);
      double seconds = (System.nanoTime() - windowStarted) / 1e9;
      listener.phase("stop");
      if (!control.awaitPhase(RunControl.STOP, STOP_TIMEOUT_SECONDS * 1000L)) {
        long stuck = control.usersNotIn(RunControl.STOP);
        connections.forEach(PgbenchDriver::abortQuietly);
        throw stalled(stuck, "were still in a transaction " + STOP_TIMEOUT_SECONDS + " s after");
      }
      failIfAClientFailed(control);
      WindowCheckpoint.Counters atEnd = checkpoint.read();
      listener.phase("checkpoint");
      CheckpointAccount account = checkpoint.afterWindow(atStart, atEnd);
      sampling.shutdown();
      sampling.awaitTermination(2, TimeUnit.SECONDS);
      return result(stats, seconds, account, sampler);
    } catch (SQLException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("the pgbench run was interrupted", "", e);
    } finally {
      control.request(RunControl.STOP);
      sampling.shutdownNow();
      connections.forEach(PgbenchDriver::abortQuietly);
    }
  }

  private WorkloadResult result(
      List<ClientStats> stats, double seconds, CheckpointAccount account, TimelineSampler sampler) {
    Histogram all = new Histogram(ClientStats.HIGHEST_MICROS, 3);
    long errors = 0;
    for (ClientStats s : stats) {
      all.add(s.windowLatencyMicros);
      errors += s.windowErrors;
    }
    long committed = all.getTotalCount();
    LatencySummary latency = summary(all);
    Map<String, Double> extra = new LinkedHashMap<>();
    extra.put("users", (double) spec.users());
    extra.put("scale", (double) spec.scale());
    extra.put("rampupSeconds", (double) rampupSeconds);
    return new WorkloadResult(
        seconds,
        committed,
        errors,
        0,
        committed / seconds,
        committed / (seconds + account.afterWindowSeconds()),
        0,
        0,
        latency,
        List.of(
            new TransactionProfile(
                spec.script().pgbenchName(), committed + errors, errors, 0, latency)),
        sampler.samples(),
        account,
        extra);
  }

  static LatencySummary summary(Histogram micros) {
    if (micros.getTotalCount() == 0) {
      return LatencySummary.NONE;
    }
    return new LatencySummary(
        micros.getTotalCount(),
        micros.getMean() / 1000.0,
        micros.getValueAtPercentile(50) / 1000.0,
        micros.getValueAtPercentile(95) / 1000.0,
        micros.getValueAtPercentile(99) / 1000.0,
        micros.getMaxValue() / 1000.0);
  }

  private static PgknobException stalled(long clients, String what) {
    return new PgknobException(
        clients + " pgbench clients " + what + " the window's boundary",
        "the server is stalled or overloaded; see its log and pg_stat_activity");
  }

  private static void failIfAClientFailed(RunControl control) {
    Throwable failed = control.failure();
    if (failed != null) {
      throw failure(failed);
    }
  }

  /** The run's failure as one message a user can act on. */
  private static PgknobException failure(Throwable e) {
    if (e instanceof PgknobException p) {
      return p;
    }
    if (SqlFailures.isConnectionLost(e)) {
      return new PgknobException(
          "the server stopped answering during the pgbench run: " + e.getMessage(),
          "check that it is running and see its log",
          e);
    }
    return new PgknobException(
        "the pgbench run failed: " + e.getMessage(),
        "check the server's log; pgknob rebuilds a damaged pgbench database if you drop it",
        e);
  }

  private static void abortQuietly(Connection c) {
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // closing is best effort
    }
  }
}
