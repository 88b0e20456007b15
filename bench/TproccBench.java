// TPROC-C driver benchmark (not a test): load time per warehouse, NOPM, TPM, and what the driver
// costs in CPU next to the server. Run through bench/tprocc-bench.sh, which builds the jar first.
//
// The server's CPU is read from /proc/<pid>/stat of the managed cluster's postmaster and all its
// children (utime + stime, plus cutime + cstime of the postmaster for children that exited), the
// driver's from the JVM's own process CPU time, both over the measured window only.

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.pgknob.server.ManagedCluster;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.tprocc.TproccBuilder;
import org.pgknob.workload.tprocc.TproccSettings;
import org.pgknob.workload.tprocc.TproccWorkload;

public class TproccBench {
  static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

  public static void main(String[] args) throws Exception {
    int warehouses = Integer.parseInt(arg(args, 0, "4"));
    int users = Integer.parseInt(arg(args, 1, "8"));
    int rampup = Integer.parseInt(arg(args, 2, "20"));
    int duration = Integer.parseInt(arg(args, 3, "60"));
    int port = Integer.parseInt(arg(args, 4, "0"));

    ManagedCluster cluster = ManagedCluster.openDefault(port);
    cluster.start();
    long postmaster = cluster.postmasterPid().orElseThrow();
    TproccSettings settings =
        TproccSettings.defaults(warehouses)
            .withDatabase("tprocc_bench")
            .withUsers(users)
            .withTimes(rampup, duration);

    TproccBuilder.BuildReport build =
        new TproccBuilder(cluster, settings).build(true, Progress.SILENT);
    TproccWorkload workload = new TproccWorkload(settings);
    double resetSeconds = workload.reset(cluster);

    long[] serverTicks = new long[2];
    long[] driverNanos = new long[2];
    WorkloadResult r =
        workload.run(
            cluster,
            new RunListener() {
              @Override
              public void phase(String name) {
                if (name.equals("window")) {
                  serverTicks[0] = treeTicks(postmaster);
                  driverNanos[0] = processCpuNanos();
                } else if (name.equals("stop")) {
                  serverTicks[1] = treeTicks(postmaster);
                  driverNanos[1] = processCpuNanos();
                }
              }
            });
    double serverCpu = (serverTicks[1] - serverTicks[0]) / (double) TICKS_PER_SECOND;
    double driverCpu = (driverNanos[1] - driverNanos[0]) / 1e9;
    long transactions = r.committed() + r.rollbacks() + r.errors();

    System.out.printf(Locale.ROOT, "TPROC-C bench: %d warehouses, %d users, %d s window, PostgreSQL 18 defaults, %d cores%n",
        warehouses, users, duration, Runtime.getRuntime().availableProcessors());
    System.out.printf(Locale.ROOT, "load:           %.1f s for %d warehouses = %.1f s per warehouse (whole build %.1f s)%n",
        build.loadSeconds(), warehouses, build.loadSeconds() / warehouses, build.totalSeconds());
    System.out.printf(Locale.ROOT, "reset:          %.1f s (CREATE DATABASE ... TEMPLATE ... STRATEGY FILE_COPY)%n", resetSeconds);
    System.out.printf(Locale.ROOT, "NOPM:           %.0f%n", r.nopm());
    System.out.printf(Locale.ROOT, "TPM:            %.0f%n", r.tpm());
    System.out.printf(Locale.ROOT, "driver TPS:     %.1f, average latency %.2f ms, p95 %.2f ms%n",
        r.tps(), r.overall().avgMs(), r.overall().p95Ms());
    System.out.printf(Locale.ROOT, "driver CPU:     %.2f s over the window = %.3f s per 1,000 transactions%n",
        driverCpu, driverCpu * 1000 / Math.max(1, transactions));
    System.out.printf(Locale.ROOT, "server CPU:     %.2f s over the window%n", serverCpu);
    System.out.printf(Locale.ROOT, "driver share:   %.1f%% of driver + server CPU%n",
        100 * driverCpu / (driverCpu + serverCpu));
    System.out.printf(Locale.ROOT, "checkpoint:     %.1f s after the window, %d buffers; %d inside it%n",
        r.checkpoint().afterWindowSeconds(), r.checkpoint().afterWindowBuffers(), r.checkpoint().checkpointsInWindow());
    System.exit(0);
  }

  static String arg(String[] args, int i, String fallback) {
    return args.length > i ? args[i] : fallback;
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** utime + stime of the postmaster and its live children, plus its reaped children's. */
  static long treeTicks(long postmaster) {
    long ticks = 0;
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        String[] f = stat(p);
        if (f == null) {
          continue;
        }
        long pid = Long.parseLong(name);
        long ppid = Long.parseLong(f[1]);
        if (pid == postmaster) {
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } else if (ppid == postmaster) {
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return ticks;
  }

  /** Fields of /proc/<pid>/stat after the command name: [0] = state, [1] = ppid, [11] = utime. */
  static String[] stat(Path proc) {
    try {
      String s = Files.readString(proc.resolve("stat"));
      return s.substring(s.lastIndexOf(')') + 2).split(" ");
    } catch (java.io.IOException | RuntimeException e) {
      return null; // the process ended meanwhile
    }
  }
}
