// Covariate adjustment benchmark (not a test): the validation intervals of a `pgknob compare`
// folder with and without regression adjustment by a per-run covariate, computed after the fact
// from the logged trials with pgknob's own measure.CovariateSlope and measure.AdjustedRatio.
// Run through bench/covariate-bench.sh.
//
// Covariates: "cpu", other processes' CPU during each window (resources.foreignCpuAvgCores in
// trials.jsonl); "disk", the log of the disk's synchronous 8 kB write rate during each window, from
// a log of bench/disk-probe-log.py run beside the comparison (given as PROBE_LOG); "recorded", the
// log of the rate pgknob's own probe recorded (resources.diskSyncWritesPerSec, managed clusters).
//
// The slope is pooled within every configuration the folder ran more than once (the defaults'
// baselines and validation runs, each candidate's runs), as a session would pool it; each
// candidate's pairs are the defaults' run and its run of the same validation round.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.measure.AdjustedRatio;
import org.pgknob.measure.CovariateSlope;
import org.pgknob.measure.PairedRatio;
import org.pgknob.measure.PooledNoise;

public class CovariateBench {
  private static final Pattern ROUND = Pattern.compile("validation round (\\d+)/\\d+ (.+)");

  record Run(String settings, String label, double tps, double covariate) {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: CovariateBench cpu|recorded|disk COMPARE_DIR [PROBE_LOG]");
      System.exit(2);
    }
    String covariate = args[0];
    List<double[]> probe = new ArrayList<>();
    if (covariate.equals("disk")) {
      for (String line : Files.readAllLines(Path.of(args[2]))) {
        String[] f = line.trim().split("\\s+");
        if (f.length == 2) {
          probe.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])});
        }
      }
    }
    ObjectMapper json = new ObjectMapper();
    List<Run> runs = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[1], "trials.jsonl"))) {
      JsonNode t = json.readTree(line);
      JsonNode w = t.path("workload");
      if (!t.path("status").asText().equals("OK") || !(w.path("tps").asDouble() > 0)) {
        continue;
      }
      double x;
      if (covariate.equals("cpu")) {
        if (t.path("resources").path("hostCores").asInt() == 0) {
          continue;
        }
        x = t.path("resources").path("foreignCpuAvgCores").asDouble();
      } else if (covariate.equals("recorded")) {
        double rate = t.path("resources").path("diskSyncWritesPerSec").asDouble();
        if (!(rate > 0)) {
          continue;
        }
        x = Math.log(rate);
      } else {
        JsonNode s = t.path("timingsSeconds");
        double end =
            Instant.parse(t.path("startedAt").asText()).toEpochMilli() / 1000.0
                + s.path("apply").asDouble()
                + s.path("reset").asDouble()
                + s.path("run").asDouble()
                - w.path("checkpoint").path("afterWindowSeconds").asDouble();
        double start = end - w.path("windowSeconds").asDouble();
        double sum = 0;
        int n = 0;
        for (double[] p : probe) {
          if (p[0] >= start && p[0] <= end) {
            sum += p[1];
            n++;
          }
        }
        if (n == 0) {
          continue;
        }
        x = Math.log(sum / n);
      }
      runs.add(
          new Run(
              // pgknob writes a configuration's settings in one order: their text names it
              t.path("settings").toString(),
              t.path("label").asText(),
              w.path("tps").asDouble(),
              x));
    }
    Map<String, List<Run>> bySettings = new LinkedHashMap<>();
    runs.forEach(r -> bySettings.computeIfAbsent(r.settings(), k -> new ArrayList<>()).add(r));
    List<double[][]> groups = new ArrayList<>();
    List<double[]> values = new ArrayList<>();
    for (List<Run> g : bySettings.values()) {
      groups.add(g.stream().map(r -> new double[] {r.tps(), r.covariate()}).toArray(double[][]::new));
      values.add(g.stream().mapToDouble(Run::tps).toArray());
    }
    CovariateSlope slope = CovariateSlope.of(groups);
    var noise = PooledNoise.of(values);
    System.out.printf(
        Locale.ROOT,
        "%s: %d runs of %d configurations; noise %.1f%% (%d df); slope %+.3f (se %.3f), explains"
            + " %.0f%% of the within-configuration variance, residual noise %.1f%% (%d df)%n",
        covariate,
        runs.size(),
        bySettings.size(),
        100 * noise.logSd(),
        noise.degreesOfFreedom(),
        slope.slope(),
        slope.slopeSe(),
        100 * slope.varianceExplained(),
        100 * slope.residual().logSd(),
        slope.residual().degreesOfFreedom());
    Map<String, Map<Integer, Run>> byRound = new LinkedHashMap<>();
    for (Run r : runs) {
      Matcher m = ROUND.matcher(r.label());
      if (m.matches()) {
        byRound
            .computeIfAbsent(m.group(2), k -> new TreeMap<>())
            .put(Integer.parseInt(m.group(1)), r);
      }
    }
    Map<Integer, Run> baseline = byRound.getOrDefault("baseline", Map.of());
    for (var e : byRound.entrySet()) {
      if (e.getKey().equals("baseline")) {
        continue;
      }
      List<Run[]> pairs = new ArrayList<>();
      e.getValue()
          .forEach(
              (round, r) -> {
                if (baseline.containsKey(round)) {
                  pairs.add(new Run[] {baseline.get(round), r});
                }
              });
      // as the validation rounds grow: the intervals after 3, 6 and all pairs
      for (int n : new int[] {3, 6, pairs.size()}) {
        if (n > pairs.size() || n < 2) {
          continue;
        }
        List<Run[]> p = pairs.subList(0, n);
        AdjustedRatio r =
            AdjustedRatio.of(
                p.stream().mapToDouble(x -> x[0].tps()).toArray(),
                p.stream().mapToDouble(x -> x[1].tps()).toArray(),
                p.stream().mapToDouble(x -> x[0].covariate()).toArray(),
                p.stream().mapToDouble(x -> x[1].covariate()).toArray(),
                0.95,
                noise,
                slope);
        System.out.printf(
            Locale.ROOT,
            "  %s, %d pairs: plain %s, adjusted %s%s%n",
            e.getKey(),
            n,
            describe(r.plain()),
            describe(r.used()),
            r.applied()
                ? String.format(Locale.ROOT, " (%.0f%% narrower)", 100 * r.narrowing())
                : " (refused: " + r.refusal() + ")");
      }
    }
  }

  private static String describe(PairedRatio r) {
    return String.format(
        Locale.ROOT,
        "%.3f (%.3f-%.3f, +-%.1f%%)",
        r.estimate(),
        r.low(),
        r.high(),
        100 * Math.expm1(r.halfWidth()));
  }
}
