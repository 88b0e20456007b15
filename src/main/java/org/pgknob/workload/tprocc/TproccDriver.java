package org.pgknob.workload.tprocc;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.driver.DriverConnections;
import org.pgknob.workload.driver.RunControl;
import org.pgknob.workload.driver.SqlFailures;
import org.pgknob.workload.driver.TimelineSampler;

/**
 * One TPROC-C run: virtual users on their own connections, a ramp-up, the measured window, a
 * bounded stop, and a CHECKPOINT that accounts for the window's deferred writes. The figures come
 * both HammerDB's way (pg_stat_database and d_next_o_id deltas) and the driver's way (its own
 * counts and latency histograms).
 */
final class TproccDriver {
  /** A call that takes longer than this is treated as a server that stopped answering. */
  static final int USER_SOCKET_TIMEOUT_SECONDS = 120;

  /** The monitor also runs the CHECKPOINT after the window, which can take minutes. */
  static final int MONITOR_SOCKET_TIMEOUT_SECONDS = 900;

  /** How the driver's connections name themselves in pg_stat_activity. */
  static final String APPLICATION_NAME = "pgknob tprocc";

  private static final java.util.Properties NO_PROPERTIES = new java.util.Properties();

  private final TproccSettings settings;

  TproccDriver(TproccSettings settings) {
    this.settings = settings;
  }

  WorkloadResult run(Target target, RunListener listener) {
    List<Connection> userConnections = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    ScheduledExecutorService sampling =
        Executors.newSingleThreadScheduledExecutor(daemon("sampler"));
    RunControl control = new RunControl(settings.users());
    try (Connection monitor =
        DriverConnections.open(
            target,
            settings.database(),
            MONITOR_SOCKET_TIMEOUT_SECONDS,
            APPLICATION_NAME,
            NO_PROPERTIES)) {
      boolean checkpointerView = ServerCounters.prepare(monitor);
      int warehouses = checkDatabase(monitor);
      checkConnectionsAvailable(monitor);

      listener.phase("connect");
      List<UserStats> stats = new ArrayList<>();
      for (int u = 0; u < settings.users(); u++) {
        Connection c =
            DriverConnections.open(
                target,
                settings.database(),
                USER_SOCKET_TIMEOUT_SECONDS,
                APPLICATION_NAME,
                NO_PROPERTIES);
        userConnections.add(c);
        TpccRandom random = new TpccRandom();
        UserStats userStats = new UserStats();
        stats.add(userStats);
        TransactionCalls calls = new TransactionCalls(c, random, warehouses, random.uniform(1, 10));
        Thread t =
            new Thread(
                new VirtualUser(
                    c,
                    calls,
                    control,
                    userStats,
                    random,
                    warehousesOf(u, settings.users(), warehouses, settings.allWarehouses()),
                    settings.keyAndThink()),
                "tprocc-user-" + (u + 1));
        t.setDaemon(true);
        threads.add(t);
      }

      TimelineSampler sampler =
          new TimelineSampler(stats, () -> control.requestedPhase() == RunControl.WINDOW, listener);
      listener.phase("rampup");
      threads.forEach(Thread::start);
      sampling.scheduleAtFixedRate(sampler, 1, 1, TimeUnit.SECONDS);
      control.sleep(settings.rampupSeconds() * 1000L);
      failIfAUserFailed(control);
      listener.phase("checkpoint before the window");
      double checkpointBefore = CheckpointAfterWindow.beforeWindow(monitor);
      failIfAUserFailed(control);

      control.request(RunControl.WINDOW);
      long windowStarted = System.nanoTime();
      listener.phase("window");
      awaitUsers(control, RunControl.WINDOW, USER_SOCKET_TIMEOUT_SECONDS * 1000L + 5000);
      ServerCounters atStart = ServerCounters.read(monitor, checkpointerView);
      long cpuAtStart = processCpuNanos();
      control.sleep(
          settings.durationSeconds() * 1000L - (System.nanoTime() - windowStarted) / 1_000_000);
      failIfAUserFailed(control);

      control.request(RunControl.STOP);
      double windowSeconds = (System.nanoTime() - windowStarted) / 1e9;
      listener.phase("stop");
      stopUsers(control, userConnections);
      ServerCounters atEnd = ServerCounters.read(monitor, checkpointerView);
      long driverCpuNanos = processCpuNanos() - cpuAtStart;

      listener.phase("checkpoint");
      CheckpointAccount checkpoint =
          CheckpointAfterWindow.run(monitor, checkpointerView, atStart, atEnd)
              .withWindowState(atEnd.autovacuums() - atStart.autovacuums(), checkpointBefore);
      sampling.shutdown();
      sampling.awaitTermination(2, TimeUnit.SECONDS);

      WindowFigures figures = new WindowFigures(stats);
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("users", (double) settings.users());
      extra.put("warehouses", (double) warehouses);
      extra.put("rampupSeconds", (double) settings.rampupSeconds());
      extra.put("serverTransactions", (double) (atEnd.transactions() - atStart.transactions()));
      extra.put("serverNewOrders", (double) (atEnd.nextOrderIdSum() - atStart.nextOrderIdSum()));
      extra.put("driverNewOrders", (double) figures.newOrdersCommitted);
      extra.put("driverCpuSeconds", driverCpuNanos / 1e9);
      extra.put("statsFlushed", control.statsFlushAllowed() ? 1.0 : 0.0);
      return new WorkloadResult(
          windowSeconds,
          figures.committed,
          figures.errors,
          figures.rollbacks,
          figures.committed / windowSeconds,
          figures.committed / (windowSeconds + checkpoint.afterWindowSeconds()),
          (atEnd.transactions() - atStart.transactions()) * 60.0 / windowSeconds,
          (atEnd.nextOrderIdSum() - atStart.nextOrderIdSum()) * 60.0 / windowSeconds,
          figures.overall,
          figures.profiles,
          sampler.samples(),
          checkpoint,
          extra);
    } catch (SQLException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("the TPROC-C run was interrupted", "", e);
    } finally {
      control.request(RunControl.STOP);
      sampling.shutdownNow();
      for (Connection c : userConnections) {
        abortQuietly(c);
      }
    }
  }

  /** The run's failure as one message a user can act on. */
  private static PgknobException failure(Throwable e) {
    if (e instanceof PgknobException p) {
      return p;
    }
    if (e instanceof SQLException sql && "3D000".equals(sql.getSQLState())) {
      return new PgknobException(
          "there is no TPROC-C database to run on: " + e.getMessage(),
          "build it with: pgknob tprocc build --warehouses N");
    }
    if (SqlFailures.isConnectionLost(e)) {
      return new PgknobException(
          "the server stopped answering during the TPROC-C run: " + e.getMessage(),
          "check that it is running and see its log",
          e);
    }
    return new PgknobException(
        "the TPROC-C run failed: " + e.getMessage(),
        "check the server's log; if the schema is damaged, rebuild with: pgknob tprocc build"
            + " --rebuild",
        e);
  }

  private static void failIfAUserFailed(RunControl control) {
    Throwable failed = control.failure();
    if (failed != null) {
      throw failure(failed);
    }
  }

  private static void awaitUsers(RunControl control, int phase, long timeoutMillis)
      throws InterruptedException {
    boolean all = control.awaitPhase(phase, timeoutMillis);
    failIfAUserFailed(control);
    if (!all) {
      throw new PgknobException(
          control.usersNotIn(phase)
              + " virtual users did not finish their transaction within "
              + timeoutMillis / 1000
              + " s",
          "the server is stalled or overloaded; see its log and pg_stat_activity");
    }
  }

  /**
   * Waits for every user to finish its last transaction; users still busy after the stop timeout
   * have their connections aborted, which ends their call at once.
   */
  private void stopUsers(RunControl control, List<Connection> connections)
      throws InterruptedException {
    if (control.awaitPhase(RunControl.STOP, settings.stopTimeoutSeconds() * 1000L)) {
      failIfAUserFailed(control);
      return;
    }
    long stuck = control.usersNotIn(RunControl.STOP);
    for (Connection c : connections) {
      abortQuietly(c);
    }
    throw new PgknobException(
        stuck
            + " virtual users were still in a transaction "
            + settings.stopTimeoutSeconds()
            + " s after the window ended; their connections were closed",
        "the server is stalled or overloaded; see its log");
  }

  private static void abortQuietly(Connection c) {
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // closing is best effort
    }
  }

  /** Checks the live database is pgknob's TPROC-C of this version; returns its warehouses. */
  private int checkDatabase(Connection monitor) throws SQLException {
    String comment;
    try (Statement st = monitor.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT coalesce(shobj_description(oid, 'pg_database'), '') FROM pg_database"
                    + " WHERE datname = current_database()")) {
      rs.next();
      comment = rs.getString(1);
    }
    DatabaseMark mark =
        DatabaseMark.parse(comment)
            .orElseThrow(
                () ->
                    new PgknobException(
                        "the database " + settings.database() + " is not pgknob's TPROC-C database",
                        "build one with: pgknob tprocc build, or choose another --database"));
    TproccDatabases.requireCurrentVersion(settings.database(), mark);
    if (mark.role() != DatabaseMark.Role.LIVE) {
      throw new PgknobException(
          "the database " + settings.database() + " is not a finished TPROC-C build",
          "rebuild it with: pgknob tprocc build --rebuild");
    }
    return mark.warehouses();
  }

  /** Refuses before starting when the server cannot take one connection per virtual user. */
  private void checkConnectionsAvailable(Connection monitor) throws SQLException {
    try (Statement st = monitor.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('max_connections')::int,"
                    + " current_setting('superuser_reserved_connections')::int"
                    + " + coalesce(current_setting('reserved_connections', true), '0')::int,"
                    + " (SELECT count(*) FROM pg_stat_activity"
                    + " WHERE backend_type = 'client backend')")) {
      rs.next();
      int max = rs.getInt(1);
      int reserved = rs.getInt(2);
      int inUse = rs.getInt(3);
      int available = max - reserved - inUse;
      if (settings.users() > available) {
        throw new PgknobException(
            settings.users()
                + " virtual users need "
                + settings.users()
                + " connections, but the server has room for "
                + Math.max(available, 0)
                + " (max_connections "
                + max
                + ", "
                + reserved
                + " reserved, "
                + inUse
                + " in use, including pgknob's monitor)",
            "use fewer --users or raise max_connections");
      }
    }
  }

  /**
   * The warehouses user {@code u} works on: its home warehouse (users spread round-robin), or with
   * all-warehouses every warehouse dealt to it round-robin (at least its home one).
   */
  static int[] warehousesOf(int u, int users, int warehouses, boolean all) {
    int home = u % warehouses + 1;
    if (!all || users >= warehouses) {
      return new int[] {home};
    }
    List<Integer> mine = new ArrayList<>();
    for (int w = 1; w <= warehouses; w++) {
      if ((w - 1) % users == u) {
        mine.add(w);
      }
    }
    return mine.stream().mapToInt(Integer::intValue).toArray();
  }

  private static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return 0;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, "tprocc-" + name);
      t.setDaemon(true);
      return t;
    };
  }
}
