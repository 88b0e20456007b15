// pgbench workload benchmark (not a test): pgknob's driver of pgbench's built-in scripts against
// the real pgbench binary. Run through bench/pgbench-bench.sh, which builds the jar first.
//
// What is compared, like with like: the same server (pgknob's managed PostgreSQL 18, default
// settings), the same database (pgknob's build of pgbench_s<scale>, copied afresh from its pristine
// copy before every run of either tool), the same clients, the same statements sent the same way.
// pgbench runs with -M simple, its default: one Query message per statement with literal values,
// which is what pgknob's driver sends (pgJDBC's preferQueryMode=simple); -M prepared would compare
// pgknob's simple protocol with a parse-once protocol and measure the protocol, not the driver.
// pgbench also runs with -n (pgknob vacuums nothing before a run either), a warm-up run of
// rampup_s seconds, a CHECKPOINT, then the measured run of window_s seconds and a CHECKPOINT, as
// pgknob's driver ramps up, runs a CHECKPOINT, measures its window and runs a CHECKPOINT (so
// neither leaves the next run dirty buffers to write). Connecting is outside both windows.
// pgbench runs -j CLIENTS by default, one thread per client as pgknob's driver runs: with -j 1 its
// one thread serves every client, and on a machine whose cores are all busy the scheduler gives
// that one thread a quarter of what pgknob's four get (select-only at load 25: pgknob 1.29x).
//
// How, on a machine shared with other work: many short rounds, each one run of either tool on the
// same fresh database state, in ABBA order (pgknob first in even rounds, pgbench first in odd
// ones, so a machine that speeds up or slows down within a round favours each tool equally
// often). Each round gives one ratio; the summary is the median of the per-round ratios with a
// distribution-free 95% interval (order statistics: a round that met a burst of other work moves
// neither), beside the geometric mean with a paired-t 95% interval on the log ratios, and the
// load average over the rounds. The goal (within 10%) holds when the median's whole interval lies
// in 0.90-1.10, fails when it lies wholly outside, and is undecided otherwise.
//
// Also printed, as the reason for a gap if there is one: each client's CPU per transaction
// (pgknob's JVM over its window, pgbench's process over its measured run).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.measure.MedianInterval;
import org.pgknob.measure.PairedRatio;
import org.pgknob.server.ManagedCluster;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.pgbench.PgbenchScript;
import org.pgknob.workload.pgbench.PgbenchSpec;

public class PgbenchBench {
  static final Pattern TPS = Pattern.compile("^tps = ([0-9.]+)", Pattern.MULTILINE);
  static final Pattern PROCESSED =
      Pattern.compile("^number of transactions actually processed: ([0-9]+)", Pattern.MULTILINE);
  static final Pattern CPU = Pattern.compile("^pgbench-cpu ([0-9.]+) ([0-9.]+)$", Pattern.MULTILINE);
  static final double GOAL = 0.10;

  /** One tool's measured run: its TPS and its client's CPU per transaction. */
  record Run(double tps, double cpuMicrosPerTransaction) {}

  public static void main(String[] args) throws Exception {
    int scale = Integer.parseInt(arg(args, 0, "10"));
    int clients = Integer.parseInt(arg(args, 1, "4"));
    int rampup = Integer.parseInt(arg(args, 2, "2"));
    int window = Integer.parseInt(arg(args, 3, "5"));
    int rounds = Integer.parseInt(arg(args, 4, "16"));
    int threads = Integer.parseInt(arg(args, 5, Integer.toString(clients)));
    int port = Integer.parseInt(arg(args, 6, "0"));
    String only = arg(args, 7, "both");

    ManagedCluster cluster = ManagedCluster.openDefault(port);
    cluster.start();
    System.out.printf(Locale.ROOT,
        "pgbench bench: scale %d, %d clients, %d s ramp-up + %d s window, %d rounds (ABBA),"
            + " pgbench -n -M simple -j %d, PostgreSQL 18 defaults, %d cores, load %s%n",
        scale, clients, rampup, window, rounds, threads, Runtime.getRuntime().availableProcessors(),
        loadAverages());
    for (PgbenchScript script : PgbenchScript.values()) {
      if (!only.equals("both") && !only.equals(script.pgbenchName())) {
        continue;
      }
      bench(cluster, script, scale, clients, rampup, window, rounds, threads);
    }
    System.out.printf(Locale.ROOT, "%nload at the end %s%n", loadAverages());
    System.exit(0);
  }

  static void bench(ManagedCluster cluster, PgbenchScript script, int scale, int clients,
      int rampup, int window, int rounds, int threads) throws Exception {
    PgbenchSpec spec = new PgbenchSpec(script, scale, clients);
    Workload workload = spec.create(rampup, window);
    workload.prepare(cluster, Progress.SILENT);
    // Discarded runs first: the server's caches warm up, and so does the JVM's JIT, as a
    // session's first trials do for all the others. One run is not enough for the JIT: its
    // compiler threads still took 0.9-1.4 s of CPU in the second and third 12 s runs (about 100 us
    // per transaction at 4 clients), counted as the driver's CPU and taken from the server. So
    // pgknob runs again until a run's compiling takes under 2% of its time (at most 6 runs).
    int warmups = warmUp(workload, cluster, rampup + window);
    workload.reset(cluster);
    pgbench(cluster, spec, rampup, window, threads);
    System.out.printf(Locale.ROOT, "%n%s: %d warm-up runs of pgknob%n", script.pgbenchName(),
        warmups);

    System.out.printf(Locale.ROOT, "%s%n%5s %-5s %12s %12s %7s %22s %6s%n",
        script.pgbenchName(), "round", "first", "pgknob TPS", "pgbench TPS", "ratio",
        "CPU us/tx (pgknob/pg)", "load1");
    double[] ours = new double[rounds];
    double[] theirs = new double[rounds];
    double[] ratios = new double[rounds];
    double[] load1 = new double[rounds];
    List<Double> ourCpu = new ArrayList<>();
    List<Double> theirCpu = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      boolean pgknobFirst = round % 2 == 0;
      load1[round] = loadAverage1();
      Run a;
      Run b;
      if (pgknobFirst) {
        workload.reset(cluster);
        a = pgknob(workload, cluster);
        workload.reset(cluster);
        b = pgbench(cluster, spec, rampup, window, threads);
      } else {
        workload.reset(cluster);
        b = pgbench(cluster, spec, rampup, window, threads);
        workload.reset(cluster);
        a = pgknob(workload, cluster);
      }
      ours[round] = a.tps();
      theirs[round] = b.tps();
      ratios[round] = a.tps() / b.tps();
      ourCpu.add(a.cpuMicrosPerTransaction());
      theirCpu.add(b.cpuMicrosPerTransaction());
      System.out.printf(Locale.ROOT, "%5d %-5s %12.1f %12.1f %7.3f %11.0f / %-8.0f %6.1f%n",
          round + 1, pgknobFirst ? "A" : "B", a.tps(), b.tps(), ratios[round],
          a.cpuMicrosPerTransaction(), b.cpuMicrosPerTransaction(), load1[round]);
    }
    MedianInterval median = MedianInterval.of(ratios, 0.95);
    PairedRatio geometric = PairedRatio.of(theirs, ours, 0.95);
    System.out.printf(Locale.ROOT,
        "%s: pgknob/pgbench TPS, median of %d rounds %.3f (95%% %.3f to %.3f, coverage %.3f);"
            + " geometric mean %.3f (paired t 95%% %.3f to %.3f); median TPS %.1f / %.1f;"
            + " median client CPU per transaction %.0f / %.0f us; load1 %.1f to %.1f%n",
        script.pgbenchName(), rounds, median.median(), median.low(), median.high(),
        median.coverage(), geometric.estimate(), geometric.low(), geometric.high(),
        medianOf(ours), medianOf(theirs), medianOf(ourCpu), medianOf(theirCpu),
        min(load1), max(load1));
    // ABBA cancels a position effect (the first or second run of a round doing better) only when
    // both orders count alike; show it, so a large one is seen.
    System.out.printf(Locale.ROOT,
        "%s: geometric mean of the ratios with pgknob first %.3f, with pgbench first %.3f%n",
        script.pgbenchName(), geometricMean(ratios, 0), geometricMean(ratios, 1));
    String verdict = median.within(1 - GOAL, 1 + GOAL)
        ? "holds: the median's whole interval lies within 10% of 1"
        : median.outside(1 - GOAL, 1 + GOAL)
            ? "fails: the median's whole interval lies more than 10% from 1"
            : "undecided: the median's interval reaches past 10% from 1 (more rounds narrow it)";
    System.out.printf(Locale.ROOT, "%s: the 10%% goal %s%n", script.pgbenchName(), verdict);
  }

  /** Runs pgknob until the JIT compiles for under 2% of a run; returns the runs it took. */
  static int warmUp(Workload workload, ManagedCluster cluster, int runSeconds) {
    var jit = ManagementFactory.getCompilationMXBean();
    for (int run = 1; ; run++) {
      long compiledMillis = jit.getTotalCompilationTime();
      workload.reset(cluster);
      pgknob(workload, cluster);
      long compiling = jit.getTotalCompilationTime() - compiledMillis;
      if (compiling < 0.02 * runSeconds * 1000 || run == 6) {
        return run;
      }
    }
  }

  static Run pgknob(Workload workload, ManagedCluster cluster) {
    WorkloadResult r = workload.run(cluster, RunListener.NONE);
    double cpu = r.extra().getOrDefault("driverCpuSeconds", 0.0);
    return new Run(r.tps(), r.committed() == 0 ? 0 : cpu * 1e6 / r.committed());
  }

  /** A warm-up run, a CHECKPOINT, then the measured one. */
  static Run pgbench(ManagedCluster cluster, PgbenchSpec spec, int rampup, int window,
      int threads) throws Exception {
    if (rampup > 0) {
      runPgbench(cluster, spec, rampup, threads);
    }
    checkpoint(cluster, spec.database());
    String out = runPgbench(cluster, spec, window, threads);
    double tps = Double.parseDouble(find(TPS, out, 1));
    long processed = Long.parseLong(find(PROCESSED, out, 1));
    double cpu = Double.parseDouble(find(CPU, out, 1)) + Double.parseDouble(find(CPU, out, 2));
    checkpoint(cluster, spec.database());
    return new Run(tps, processed == 0 ? 0 : cpu * 1e6 / processed);
  }

  static String runPgbench(ManagedCluster cluster, PgbenchSpec spec, int seconds, int threads)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder("/usr/bin/time", "-f", "pgbench-cpu %U %S",
        "pgbench", "-n", "-M", "simple", "-b", spec.script().pgbenchName(),
        "-c", Integer.toString(spec.users()), "-j", Integer.toString(threads),
        "-T", Integer.toString(seconds), "-h", "127.0.0.1", "-p", Integer.toString(cluster.port()),
        "-U", ManagedCluster.SUPERUSER, spec.database());
    pb.environment().put("PGPASSWORD", Files.readString(cluster.passwordFile()).trim());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out;
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      out = String.join("\n", r.lines().toList());
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException("pgbench failed:\n" + out);
    }
    return out;
  }

  static String find(Pattern pattern, String out, int group) {
    Matcher m = pattern.matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("no match for " + pattern + " in pgbench's output:\n" + out);
    }
    return m.group(group);
  }

  static void checkpoint(ManagedCluster cluster, String database) throws Exception {
    try (Connection c = cluster.connect(database); Statement st = c.createStatement()) {
      st.execute("CHECKPOINT");
    }
  }

  static String loadAverages() throws Exception {
    String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
    return f[0] + " " + f[1] + " " + f[2];
  }

  static double loadAverage1() throws Exception {
    return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
  }

  static double medianOf(double[] xs) {
    double[] s = xs.clone();
    java.util.Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static double medianOf(List<Double> xs) {
    return medianOf(xs.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** The geometric mean of every other value from {@code first}. */
  static double geometricMean(double[] xs, int first) {
    double sum = 0;
    int n = 0;
    for (int i = first; i < xs.length; i += 2) {
      sum += Math.log(xs[i]);
      n++;
    }
    return n == 0 ? Double.NaN : Math.exp(sum / n);
  }

  static double min(double[] xs) {
    return java.util.Arrays.stream(xs).min().orElse(0);
  }

  static double max(double[] xs) {
    return java.util.Arrays.stream(xs).max().orElse(0);
  }

  static String arg(String[] args, int i, String fallback) {
    return args.length > i ? args[i] : fallback;
  }
}
