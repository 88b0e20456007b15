// pgbench workload benchmark (not a test): pgknob's driver of pgbench's built-in scripts against
// the real pgbench binary. Run through bench/pgbench-bench.sh, which builds the jar first.
//
// Both run the script the same way: the simple query protocol, one round trip per statement
// (tpcb-like: BEGIN, five statements, END), literal values, no pause. pgbench runs with its
// defaults otherwise (-j 1, or -j THREADS), -n (no vacuum before the run, as pgknob does none) and a
// warm-up run of rampup_s seconds, a CHECKPOINT, then the measured run of window_s seconds;
// pgknob ramps up for rampup_s, runs a CHECKPOINT and measures window_s. Every run starts from a fresh copy of the
// pristine database and the tools alternate, so drift of the machine falls on both alike. One
// discarded run of each tool first warms the JVM's JIT and the server's caches, as a session's
// first trial does for all the others.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.server.ManagedCluster;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.Workload;
import org.pgknob.workload.pgbench.PgbenchScript;
import org.pgknob.workload.pgbench.PgbenchSpec;

public class PgbenchBench {
  static final Pattern TPS = Pattern.compile("^tps = ([0-9.]+)", Pattern.MULTILINE);

  public static void main(String[] args) throws Exception {
    int scale = Integer.parseInt(arg(args, 0, "10"));
    int clients = Integer.parseInt(arg(args, 1, "4"));
    int rampup = Integer.parseInt(arg(args, 2, "5"));
    int window = Integer.parseInt(arg(args, 3, "20"));
    int rounds = Integer.parseInt(arg(args, 4, "2"));
    int threads = Integer.parseInt(arg(args, 5, "1"));
    int port = Integer.parseInt(arg(args, 6, "0"));

    ManagedCluster cluster = ManagedCluster.openDefault(port);
    cluster.start();
    System.out.printf(Locale.ROOT,
        "pgbench bench: scale %d, %d clients, %d s ramp-up + %d s window, %d rounds, pgbench -j %d,"
            + " PostgreSQL 18 defaults, %d cores%n%n",
        scale, clients, rampup, window, rounds, threads, Runtime.getRuntime().availableProcessors());
    System.out.printf(Locale.ROOT, "%-12s %12s %12s %7s   %s%n",
        "script", "pgknob TPS", "pgbench TPS", "ratio", "runs (pgknob / pgbench)");
    for (PgbenchScript script : PgbenchScript.values()) {
      PgbenchSpec spec = new PgbenchSpec(script, scale, clients);
      Workload workload = spec.create(rampup, window);
      workload.prepare(cluster, Progress.SILENT);
      workload.reset(cluster);
      workload.run(cluster, RunListener.NONE);
      workload.reset(cluster);
      pgbench(cluster, spec, script, rampup, window, threads);
      List<Double> ours = new ArrayList<>();
      List<Double> theirs = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        workload.reset(cluster);
        ours.add(workload.run(cluster, RunListener.NONE).tps());
        workload.reset(cluster);
        theirs.add(pgbench(cluster, spec, script, rampup, window, threads));
        checkpoint(cluster, spec.database());
      }
      double a = mean(ours);
      double b = mean(theirs);
      System.out.printf(Locale.ROOT, "%-12s %12.1f %12.1f %7.3f   %s / %s%n",
          script.pgbenchName(), a, b, a / b, list(ours), list(theirs));
    }
    System.exit(0);
  }

  /** A warm-up run, then the measured one; the measured run's tps. */
  static double pgbench(ManagedCluster cluster, PgbenchSpec spec, PgbenchScript script,
      int rampup, int window, int threads) throws Exception {
    if (rampup > 0) {
      runPgbench(cluster, spec, script, rampup, threads);
    }
    // pgknob's driver runs a CHECKPOINT between its ramp-up and its window (the window then starts
    // from clean buffers, and pays the full-page writes that follow a checkpoint); so does this.
    checkpoint(cluster, spec.database());
    String out = runPgbench(cluster, spec, script, window, threads);
    Matcher m = TPS.matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("no tps line in pgbench's output:\n" + out);
    }
    return Double.parseDouble(m.group(1));
  }

  static String runPgbench(ManagedCluster cluster, PgbenchSpec spec, PgbenchScript script,
      int seconds, int threads) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("pgbench", "-n", "-M", "simple",
        "-b", script.pgbenchName(), "-c", Integer.toString(spec.users()),
        "-j", Integer.toString(threads),
        "-T", Integer.toString(seconds), "-h", "127.0.0.1", "-p", Integer.toString(cluster.port()),
        "-U", ManagedCluster.SUPERUSER, spec.database());
    pb.environment().put("PGPASSWORD", java.nio.file.Files.readString(cluster.passwordFile()).trim());
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

  static void checkpoint(ManagedCluster cluster, String database) throws Exception {
    try (Connection c = cluster.connect(database); Statement st = c.createStatement()) {
      st.execute("CHECKPOINT");
    }
  }

  static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  static String list(List<Double> xs) {
    return String.join(" ", xs.stream().map(x -> String.format(Locale.ROOT, "%.0f", x)).toList());
  }

  static String arg(String[] args, int i, String fallback) {
    return args.length > i ? args[i] : fallback;
  }
}
