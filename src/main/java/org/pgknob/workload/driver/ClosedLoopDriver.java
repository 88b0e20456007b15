package org.pgknob.workload.driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.TransactionProfile;
import org.pgknob.workload.WorkloadResult;

/**
 * A closed-loop run of one transaction: clients on their own connections run it back to back, a
 * ramp-up, the measured window, a bounded stop, and a CHECKPOINT that accounts for the window's
 * deferred writes; latencies in HdrHistograms, committed transactions once a second. pgbench's
 * scripts run on it, and so can any workload of one transaction.
 */
public final class ClosedLoopDriver {
  static final int CLIENT_SOCKET_TIMEOUT_SECONDS = 120;
  static final int MONITOR_SOCKET_TIMEOUT_SECONDS = 900;
  static final int STOP_TIMEOUT_SECONDS = 30;

  /** One client's transaction, run on that client's autocommit connection. */
  @FunctionalInterface
  public interface Transaction {
    void execute(Statement statement) throws SQLException;
  }

  /**
   * What to run.
   *
   * @param workload the workload's name, for messages ("pgbench")
   * @param transactionName the transaction's name in the result's profile
   * @param database the database to run in
   * @param applicationName the connections' application_name (the guardrail stops only these)
   * @param users clients, one connection and one thread each
   * @param connectionProperties further pgJDBC properties of the clients' connections
   */
  public record Plan(
      String workload,
      String transactionName,
      String database,
      String applicationName,
      int users,
      int rampupSeconds,
      int windowSeconds,
      Properties connectionProperties) {}

  private final Plan plan;
  private final IntFunction<Transaction> transactions;

  /** {@code transactions} makes client i's transaction (each with its own state, e.g. a random). */
  public ClosedLoopDriver(Plan plan, IntFunction<Transaction> transactions) {
    this.plan = plan;
    this.transactions = transactions;
  }

  /** Runs once; {@code extra} goes into the result's workload-specific figures. */
  public WorkloadResult run(Target target, RunListener listener, Map<String, Double> extra) {
    List<Connection> connections = new ArrayList<>();
    ScheduledExecutorService sampling =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, plan.workload() + "-sampler");
              t.setDaemon(true);
              return t;
            });
    RunControl control = new RunControl(plan.users());
    try (Connection monitor =
        DriverConnections.open(
            target,
            plan.database(),
            MONITOR_SOCKET_TIMEOUT_SECONDS,
            plan.applicationName(),
            new Properties())) {
      WindowCheckpoint checkpoint = new WindowCheckpoint(monitor);
      listener.phase("connect");
      List<ClientStats> stats = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int u = 0; u < plan.users(); u++) {
        Connection c =
            DriverConnections.open(
                target,
                plan.database(),
                CLIENT_SOCKET_TIMEOUT_SECONDS,
                plan.applicationName(),
                plan.connectionProperties());
        connections.add(c);
        ClientStats s = new ClientStats();
        stats.add(s);
        Thread t =
            new Thread(
                new LoopClient(c, transactions.apply(u), control, s),
                plan.workload() + "-client-" + (u + 1));
        t.setDaemon(true);
        threads.add(t);
      }
      TimelineSampler sampler =
          new TimelineSampler(stats, () -> control.requestedPhase() == RunControl.WINDOW, listener);
      listener.phase("rampup");
      threads.forEach(Thread::start);
      sampling.scheduleAtFixedRate(sampler, 1, 1, TimeUnit.SECONDS);
      control.sleep(plan.rampupSeconds() * 1000L);
      failIfAClientFailed(control);

      control.request(RunControl.WINDOW);
      long windowStarted = System.nanoTime();
      listener.phase("window");
      if (!control.awaitPhase(RunControl.WINDOW, CLIENT_SOCKET_TIMEOUT_SECONDS * 1000L + 5000)) {
        failIfAClientFailed(control);
        throw stalled(control.usersNotIn(RunControl.WINDOW), "did not finish a transaction at");
      }
      failIfAClientFailed(control);
      WindowCheckpoint.Counters atStart = checkpoint.read();
      control.sleep(plan.windowSeconds() * 1000L - (System.nanoTime() - windowStarted) / 1_000_000);
      failIfAClientFailed(control);

      control.request(RunControl.STOP);
      double seconds = (System.nanoTime() - windowStarted) / 1e9;
      listener.phase("stop");
      if (!control.awaitPhase(RunControl.STOP, STOP_TIMEOUT_SECONDS * 1000L)) {
        long stuck = control.usersNotIn(RunControl.STOP);
        connections.forEach(ClosedLoopDriver::abortQuietly);
        throw stalled(stuck, "were still in a transaction " + STOP_TIMEOUT_SECONDS + " s after");
      }
      failIfAClientFailed(control);
      WindowCheckpoint.Counters atEnd = checkpoint.read();
      listener.phase("checkpoint");
      CheckpointAccount account = checkpoint.afterWindow(atStart, atEnd);
      sampling.shutdown();
      sampling.awaitTermination(2, TimeUnit.SECONDS);
      return result(stats, seconds, account, sampler, extra);
    } catch (SQLException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("the " + plan.workload() + " run was interrupted", "", e);
    } finally {
      control.request(RunControl.STOP);
      sampling.shutdownNow();
      connections.forEach(ClosedLoopDriver::abortQuietly);
    }
  }

  private WorkloadResult result(
      List<ClientStats> stats,
      double seconds,
      CheckpointAccount account,
      TimelineSampler sampler,
      Map<String, Double> extra) {
    Histogram all = Latencies.histogram();
    long errors = 0;
    for (ClientStats s : stats) {
      all.add(s.windowLatencyMicros);
      errors += s.windowErrors;
    }
    long committed = all.getTotalCount();
    LatencySummary latency = Latencies.summaryWithPercentiles(all);
    Map<String, Double> figures = new LinkedHashMap<>();
    figures.put("users", (double) plan.users());
    figures.put("rampupSeconds", (double) plan.rampupSeconds());
    figures.putAll(extra);
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
            new TransactionProfile(plan.transactionName(), committed + errors, errors, 0, latency)),
        sampler.samples(),
        account,
        figures);
  }

  private PgknobException stalled(long clients, String what) {
    return new PgknobException(
        clients + " " + plan.workload() + " clients " + what + " the window's boundary",
        "the server is stalled or overloaded; see its log and pg_stat_activity");
  }

  private void failIfAClientFailed(RunControl control) {
    Throwable failed = control.failure();
    if (failed != null) {
      throw failure(failed);
    }
  }

  /** The run's failure as one message a user can act on. */
  private PgknobException failure(Throwable e) {
    if (e instanceof PgknobException p) {
      return p;
    }
    if (SqlFailures.isConnectionLost(e)) {
      return new PgknobException(
          "the server stopped answering during the " + plan.workload() + " run: " + e.getMessage(),
          "check that it is running and see its log",
          e);
    }
    return new PgknobException(
        "the " + plan.workload() + " run failed: " + e.getMessage(),
        "check the server's log and that the database " + plan.database() + " is intact",
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
