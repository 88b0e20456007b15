package org.pgknob.workload.driver;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.pgknob.PgknobException;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.RunListener;

/**
 * A closed-loop run: clients on their own pooled connections run their {@link Transaction}s back to
 * back (with the pauses a transaction asks for), a ramp-up, a CHECKPOINT, the measured window, a
 * bounded stop, and a CHECKPOINT that accounts for the window's deferred writes; latencies in
 * HdrHistograms per transaction type, committed transactions once a second. TPROC-C and pgbench's
 * scripts run on it, and so can any workload of clients in a loop.
 */
public final class ClosedLoopDriver {
  /**
   * What to run.
   *
   * @param workload the workload's name, for messages ("TPROC-C", "pgbench")
   * @param clientNoun what its clients are called in messages ("virtual users", "clients")
   * @param transactionNames the transaction types' names in the result's profile, by index
   * @param database the database to run in
   * @param users clients, one connection and one thread each
   * @param rampupSeconds time before the window
   * @param windowSeconds the measured window
   * @param stopTimeoutSeconds how long clients may take to finish their last transaction
   * @param rebuildHint how to rebuild the database when a run finds it damaged
   */
  public record Plan(
      String workload,
      String clientNoun,
      List<String> transactionNames,
      String database,
      int users,
      int rampupSeconds,
      int windowSeconds,
      int stopTimeoutSeconds,
      String rebuildHint) {
    public Plan {
      transactionNames = List.copyOf(transactionNames);
    }
  }

  private final Plan plan;
  private final Clients clients;

  public ClosedLoopDriver(Plan plan, Clients clients) {
    this.plan = plan;
    this.clients = clients;
  }

  /** Runs once on connections from {@code pool}; {@code listener} hears phases and seconds. */
  public DriverRun run(DriverPool pool, RunListener listener) {
    List<Connection> connections = new ArrayList<>();
    ScheduledExecutorService sampling =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, plan.workload() + "-sampler");
              t.setDaemon(true);
              return t;
            });
    RunControl control = new RunControl(plan.users());
    boolean clean = false;
    Connection monitor = null;
    try {
      monitor = connect(pool, true);
      WindowCheckpoint checkpoint = new WindowCheckpoint(monitor);
      clients.check(monitor);
      ConnectionRoom.require(monitor, plan.users(), plan.clientNoun());

      listener.phase("connect");
      List<ClientStats> stats = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int u = 0; u < plan.users(); u++) {
        Connection c = connect(pool, false);
        connections.add(c);
        ClientStats s = new ClientStats(plan.transactionNames().size());
        stats.add(s);
        Thread t =
            new Thread(
                new LoopClient(c, clients.open(u, c), control, s),
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
      listener.phase("checkpoint before the window");
      double checkpointBefore = checkpoint.beforeWindow();
      failIfAClientFailed(control);

      control.request(RunControl.WINDOW);
      long windowStarted = System.nanoTime();
      listener.phase("window");
      if (!control.awaitPhase(
          RunControl.WINDOW, DriverPool.CLIENT_SOCKET_TIMEOUT_SECONDS * 1000L + 5000)) {
        failIfAClientFailed(control);
        throw new PgknobException(
            control.usersNotIn(RunControl.WINDOW)
                + " "
                + plan.clientNoun()
                + " did not finish their transaction within "
                + (DriverPool.CLIENT_SOCKET_TIMEOUT_SECONDS + 5)
                + " s",
            "the server is stalled or overloaded; see its log and pg_stat_activity");
      }
      failIfAClientFailed(control);
      // The workload's counters first: the clients already count their calls as the window's.
      clients.windowStarted(monitor);
      WindowCheckpoint.Counters atStart = checkpoint.read();
      long cpuAtStart = processCpuNanos();
      control.sleep(plan.windowSeconds() * 1000L - (System.nanoTime() - windowStarted) / 1_000_000);
      failIfAClientFailed(control);

      control.request(RunControl.STOP);
      double seconds = (System.nanoTime() - windowStarted) / 1e9;
      listener.phase("stop");
      stopClients(control, pool, connections);
      WindowCheckpoint.Counters atEnd = checkpoint.read();
      clients.windowEnded(monitor);
      double cpuSeconds = (processCpuNanos() - cpuAtStart) / 1e9;

      listener.phase("checkpoint");
      CheckpointAccount account = checkpoint.afterWindow(atStart, atEnd, checkpointBefore);
      sampling.shutdown();
      sampling.awaitTermination(2, TimeUnit.SECONDS);
      clean = true;
      return new DriverRun(
          seconds,
          WindowFigures.merge(plan.transactionNames(), stats),
          sampler.samples(),
          account,
          cpuSeconds,
          control.statsFlushAllowed());
    } catch (SQLException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("the " + plan.workload() + " run was interrupted", "", e);
    } finally {
      control.request(RunControl.STOP);
      sampling.shutdownNow();
      // After a clean run every client has left its loop between transactions: its connection
      // goes back to the pool. Otherwise a client may be inside a call or a transaction.
      for (Connection c : connections) {
        release(pool, c, clean);
      }
      if (monitor != null) {
        release(pool, monitor, clean);
      }
    }
  }

  private Connection connect(DriverPool pool, boolean monitor) throws SQLException {
    try {
      return monitor ? pool.monitor() : pool.client();
    } catch (SQLException e) {
      if ("3D000".equals(e.getSQLState()) || SqlFailures.isConnectionLost(e)) {
        throw failure(e);
      }
      throw DriverPool.unreachable(plan.workload(), plan.database(), e);
    }
  }

  private static void release(DriverPool pool, Connection c, boolean clean) {
    if (!clean) {
      pool.discard(c);
      return;
    }
    try {
      c.close();
    } catch (SQLException e) {
      pool.discard(c);
    }
  }

  /**
   * Waits for every client to finish its last transaction; clients still busy after the stop
   * timeout have their connections ended, which ends their call at once.
   */
  private void stopClients(RunControl control, DriverPool pool, List<Connection> connections)
      throws InterruptedException {
    if (control.awaitPhase(RunControl.STOP, plan.stopTimeoutSeconds() * 1000L)) {
      failIfAClientFailed(control);
      return;
    }
    long stuck = control.usersNotIn(RunControl.STOP);
    connections.forEach(pool::discard);
    throw new PgknobException(
        stuck
            + " "
            + plan.clientNoun()
            + " were still in a transaction "
            + plan.stopTimeoutSeconds()
            + " s after the window ended; their connections were closed",
        "the server is stalled or overloaded; see its log");
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
    if (e instanceof SQLException sql && "3D000".equals(sql.getSQLState())) {
      return new PgknobException(
          "there is no " + plan.workload() + " database to run on: " + e.getMessage(),
          plan.rebuildHint());
    }
    if (SqlFailures.isConnectionLost(e)) {
      return new PgknobException(
          "the server stopped answering during the " + plan.workload() + " run: " + e.getMessage(),
          "check that it is running and see its log",
          e);
    }
    return new PgknobException(
        "the " + plan.workload() + " run failed: " + e.getMessage(),
        "check the server's log; if the database "
            + plan.database()
            + " is damaged, "
            + plan.rebuildHint(),
        e);
  }

  private static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return 0;
  }
}
