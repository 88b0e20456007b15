// The pgbench bench's figures again, from the logs of one or more runs (bench/pgbench-summary.sh).
//
// Why: the bench's 10% rule is on the median of the rounds' ratios, and when it says "undecided"
// the remedy it names is more rounds. Quiet machine time comes in pieces, so the rounds of several
// runs of the same driver code (the caller's responsibility: each log's first line is printed so
// the reader can check the commits and conditions) are pooled here and judged by the same rule,
// with the same estimators (measure.MedianInterval, measure.PairedRatio) as the bench itself.
//
//   bench/pgbench-summary.sh SCRIPT LOG...    SCRIPT: tpcb-like or select-only

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.measure.MedianInterval;
import org.pgknob.measure.PairedRatio;

public class PgbenchSummary {
  private static final double GOAL = 0.10;
  // "   12 B   16292.3   18072.5   0.901   22 / 19   5.1": round, who ran first, both TPS, ratio.
  private static final Pattern ROUND =
      Pattern.compile("^\\s*(\\d+) ([AB])\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s");

  public static void main(String[] args) throws IOException {
    if (args.length < 2 || !(args[0].equals("tpcb-like") || args[0].equals("select-only"))) {
      System.err.println("usage: bench/pgbench-summary.sh tpcb-like|select-only LOG...");
      System.exit(2);
    }
    String script = args[0];
    List<Double> ours = new ArrayList<>();
    List<Double> theirs = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      List<String> lines = Files.readAllLines(Path.of(args[i]));
      int before = ours.size();
      String section = "";
      for (String line : lines) {
        String trimmed = line.trim();
        if (trimmed.equals("tpcb-like") || trimmed.equals("select-only")) {
          section = trimmed;
          continue;
        }
        Matcher m = ROUND.matcher(line);
        if (section.equals(script) && m.find()) {
          ours.add(Double.parseDouble(m.group(3)));
          theirs.add(Double.parseDouble(m.group(4)));
        }
      }
      String header = lines.stream().filter(l -> l.contains("pgbench bench:")).findFirst()
          .orElse("(no header)").replaceAll("\u001B\\[[0-9;]*m", "");
      System.out.printf(Locale.ROOT, "%s: %d %s rounds; %s%n", args[i], ours.size() - before,
          script, header.trim());
    }
    double[] a = ours.stream().mapToDouble(Double::doubleValue).toArray();
    double[] b = theirs.stream().mapToDouble(Double::doubleValue).toArray();
    if (a.length < 6) {
      System.err.println("pgbench-summary: " + a.length + " " + script
          + " rounds in these logs; the median's 95% interval needs at least 6");
      System.exit(2);
    }
    double[] ratios = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      ratios[i] = a[i] / b[i];
    }
    MedianInterval median = MedianInterval.of(ratios, 0.95);
    PairedRatio geometric = PairedRatio.of(b, a, 0.95);
    System.out.printf(Locale.ROOT,
        "%s: pgknob/pgbench TPS, median of %d pooled rounds %.3f (95%% %.3f to %.3f, coverage"
            + " %.3f); geometric mean %.3f (paired t 95%% %.3f to %.3f)%n",
        script, a.length, median.median(), median.low(), median.high(), median.coverage(),
        geometric.estimate(), geometric.low(), geometric.high());
    String verdict = median.within(1 - GOAL, 1 + GOAL)
        ? "holds: the median's whole interval lies within 10% of 1"
        : median.outside(1 - GOAL, 1 + GOAL)
            ? "fails: the median's whole interval lies more than 10% from 1"
            : "undecided: the median's interval reaches past 10% from 1 (more rounds narrow it)";
    System.out.printf(Locale.ROOT, "%s: the 10%% goal %s%n", script, verdict);
  }
}
