package org.pgknob.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.Incumbent;
import org.pgknob.optimize.Objective;
import org.pgknob.optimize.Optimizer;
import org.pgknob.optimize.OptimizerKind;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.Optimizers;
import org.pgknob.optimize.Outcome;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.KnobType;
import org.pgknob.space.Scale;
import org.pgknob.space.SearchSpace;

/**
 * The optimizer benchmark (bench/optimizer-bench.sh): median simple regret of Bayes and random
 * search over seeds on standard noisy test functions, and the time of Bayes's suggest() with 20
 * knobs. Not a test: it prints a table.
 *
 * <p>Arguments: {@code [--seeds N] [--first-seed N] [--evals N] [--only NAME] [--surrogate gp|rf]
 * [--skip-timing] [--timing-only] [--progress] [--known-noise]} (each seed's regrets on stderr:
 * bayes's at its incumbent, random's, then bayes's at the best point evaluated and at its best
 * noisy observation); {@code --first-seed} runs seeds N to N + seeds - 1, so a second run adds
 * seeds to a first one's. {@code --only relevant-} runs the hard functions restricted to their
 * relevant inputs ({@link TestFunctions#relevantOnly()}) and {@code --only edge-} Levy and Ackley
 * with their optima near a wall ({@link TestFunctions#edge()}), which the full suite leaves out;
 * {@code --known-noise} gives each bayes observation the noise sd as its standard error, as a
 * session's trials carry theirs.
 */
public final class OptimizerBenchmark {
  private static final int[] CHECKPOINTS = {20, 40, 80};

  private OptimizerBenchmark() {}

  public static void main(String[] args) {
    Locale.setDefault(Locale.ROOT);
    int seeds = 30;
    int firstSeed = 0;
    int evals = 80;
    double noiseShare = 0.03;
    List<String> only = List.of();
    Map<String, String> bayesOptions = new java.util.TreeMap<>(Map.of("surrogate", "gp"));
    boolean timing = true;
    boolean progress = false;
    boolean knownNoise = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seeds" -> seeds = Integer.parseInt(args[++i]);
        case "--first-seed" -> firstSeed = Integer.parseInt(args[++i]);
        case "--evals" -> evals = Integer.parseInt(args[++i]);
        case "--noise" -> noiseShare = Double.parseDouble(args[++i]);
        case "--only" -> only = List.of(args[++i].split(","));
        case "--surrogate" -> bayesOptions.put("surrogate", args[++i]);
        case "--bayes" -> {
          for (String kv : args[++i].split(",")) {
            String[] p = kv.split("=", 2);
            bayesOptions.put(p[0], p[1]);
          }
        }
        case "--skip-timing" -> timing = false;
        case "--progress" -> progress = true;
        case "--known-noise" -> knownNoise = true;
        case "--timing-only" -> only = List.of("-");
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    PrintStream out = System.out;
    out.printf(
        "median simple regret over %d seeds from seed %d, bayes %s; noise sd %.0f%% of each function's range"
            + " (median over the space minus the minimum); regret of the noise-free function at the"
            + " incumbent (bayes: best posterior mean; random: best noisy observation), and in"
            + " brackets at the best point evaluated%n",
        seeds, firstSeed, bayesOptions, 100 * noiseShare);
    out.printf(
        "%-26s %5s %10s %10s %7s %6s %18s %11s%n",
        "function (noise sd)",
        "evals",
        "bayes",
        "random",
        "ratio",
        "goal",
        "(best evaluated)",
        "seed ratio");
    List<TestFunction> functions = new ArrayList<>();
    for (TestFunction f : TestFunctions.all()) {
      if (only.isEmpty() || only.stream().anyMatch(f.name()::startsWith)) {
        functions.add(f);
      }
    }
    for (TestFunction f : TestFunctions.onlyWhenNamed()) {
      if (only.stream().anyMatch(f.name()::startsWith)) {
        functions.add(f);
      }
    }
    Regret[][] bayes = new Regret[functions.size()][seeds];
    Regret[][] random = new Regret[functions.size()][seeds];
    double[] seconds = new double[functions.size()];
    // seeds outermost, so that a run stopped early has as many seeds of every function
    for (int s = 0; s < seeds; s++) {
      for (int i = 0; i < functions.size(); i++) {
        TestFunction f = functions.get(i);
        double noiseSd = noiseShare * range(f.noiseReference());
        long start = System.nanoTime();
        bayes[i][s] = run(f, "bayes", bayesOptions, firstSeed + s, evals, noiseSd, knownNoise);
        random[i][s] = run(f, "random", Map.of(), firstSeed + s, evals, noiseSd, false);
        seconds[i] += (System.nanoTime() - start) / 1e9;
        if (progress) {
          // one line per seed, so that a run stopped early still gives its medians
          System.err.printf(
              "seed %s %d bayes %s random %s evaluated %s noisyinc %s%s%n",
              f.name(),
              firstSeed + s,
              Arrays.toString(bayes[i][s].atIncumbent()),
              Arrays.toString(random[i][s].atIncumbent()),
              Arrays.toString(bayes[i][s].bestEvaluated()),
              Arrays.toString(bayes[i][s].atBestNoisy()),
              bayes[i][s].searched().size() < f.space().size()
                  ? " searched " + bayes[i][s].searched()
                  : "");
        }
      }
    }
    for (int i = 0; i < functions.size(); i++) {
      TestFunction f = functions.get(i);
      double noiseSd = noiseShare * range(f.noiseReference());
      for (int c = 0; c < CHECKPOINTS.length; c++) {
        if (CHECKPOINTS[c] > evals) {
          continue;
        }
        double b = median(bayes[i], c, true);
        double r = median(random[i], c, true);
        double ratio = r > 0 ? b / r : Double.NaN;
        double bestRatio = median(bayes[i], c, false) / median(random[i], c, false);
        double goal = f.name().contains("-of-30d") ? 0.5 : 0.3;
        out.printf(
            "%-26s %5d %10.4g %10.4g %7.3f %6s %18s %11.3f%n",
            c == 0 ? f.name() + String.format(" (%.3g)", noiseSd) : "",
            CHECKPOINTS[c],
            b,
            r,
            ratio,
            CHECKPOINTS[c] == 40 ? (ratio <= goal ? "met" : "MISSED") : "",
            String.format("(%.3f)", bestRatio),
            medianOfRatios(bayes[i], random[i], c));
      }
      out.printf("  (%.0f s for %d seeds)%n", seconds[i], seeds);
      out.flush();
    }
    if (timing) {
      timeSuggest(out, bayesOptions);
    }
  }

  /**
   * The function's range for the noise: its median over random points of the space minus its
   * minimum, the improvement a tuner can bring over a typical configuration. (Not max - min: the
   * walls of Branin or Styblinski-Tang are a hundred times higher than anything near the optimum,
   * and noise of a share of them would drown the search.)
   */
  static double range(TestFunction f) {
    org.pgknob.space.UnitCubeEncoder encoder = new org.pgknob.space.UnitCubeEncoder(f.space());
    Random r = new Random(11);
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < 2001; i++) {
      double[] x = new double[encoder.dimensions()];
      for (int d = 0; d < x.length; d++) {
        x[d] = r.nextDouble();
      }
      double v = f.value(encoder.decode(x));
      if (!Double.isNaN(v)) {
        values.add(v);
      }
    }
    values.sort(null);
    return values.get(values.size() / 2) - f.minimum();
  }

  /**
   * Regret after each checkpoint's number of evaluations: at the optimizer's incumbent, at the best
   * point evaluated, and at the point of the best noisy observation (random search's incumbent; for
   * bayes, what its incumbent rule is weighed against), all of the noise-free function; and the
   * knobs the optimizer searched at the end (fewer than all after a screening: {@code
   * initial=screen}).
   */
  record Regret(
      double[] atIncumbent, double[] bestEvaluated, double[] atBestNoisy, List<String> searched) {}

  static Regret run(
      TestFunction f,
      String method,
      Map<String, String> options,
      long seed,
      int evals,
      double noiseSd,
      boolean knownNoise) {
    OptimizerSpec spec = OptimizerSpec.of(f.space(), Objective.minimize("value")).withSeed(seed);
    Optimizer opt = Optimizers.create(OptimizerKind.of(method), spec, options);
    Random noise = new Random(seed * 31 + 7);
    double best = Double.POSITIVE_INFINITY;
    double bestNoisy = Double.POSITIVE_INFINITY;
    Configuration bestNoisyConfig = null;
    double[] atIncumbent = new double[CHECKPOINTS.length];
    double[] bestEvaluated = new double[CHECKPOINTS.length];
    double[] atBestNoisy = new double[CHECKPOINTS.length];
    Arrays.fill(atBestNoisy, Double.NaN);
    Arrays.fill(atIncumbent, Double.NaN);
    Arrays.fill(bestEvaluated, Double.NaN);
    for (int k = 1; k <= evals; k++) {
      Configuration c = opt.suggest();
      double v = f.value(c);
      if (Double.isNaN(v)) {
        opt.observe(c, Outcome.failed("infeasible region"));
      } else {
        best = Math.min(best, v);
        double observed = v + noiseSd * noise.nextGaussian();
        if (observed < bestNoisy) {
          bestNoisy = observed;
          bestNoisyConfig = c;
        }
        Outcome outcome = Outcome.ok("value", observed);
        // as a session passes each trial's standard error from the measured noise
        opt.observe(c, knownNoise ? outcome.withStandardError("value", noiseSd) : outcome);
      }
      for (int i = 0; i < CHECKPOINTS.length; i++) {
        if (CHECKPOINTS[i] == k) {
          Configuration incumbent = bestNoisyConfig;
          if (opt instanceof Bayes bayes) {
            incumbent = bayes.incumbent().map(Incumbent::configuration).orElse(incumbent);
          }
          atIncumbent[i] = incumbent == null ? Double.NaN : f.value(incumbent) - f.minimum();
          atBestNoisy[i] =
              bestNoisyConfig == null ? Double.NaN : f.value(bestNoisyConfig) - f.minimum();
          bestEvaluated[i] = best - f.minimum();
        }
      }
    }
    List<String> searched = opt instanceof Bayes bayes ? bayes.activeKnobs() : f.space().names();
    return new Regret(atIncumbent, bestEvaluated, atBestNoisy, searched);
  }

  private static double median(Regret[] runs, int checkpoint, boolean atIncumbent) {
    double[] v = new double[runs.length];
    for (int i = 0; i < runs.length; i++) {
      v[i] = (atIncumbent ? runs[i].atIncumbent() : runs[i].bestEvaluated())[checkpoint];
    }
    return median(v);
  }

  /**
   * The median over seeds of each seed's ratio bayes / random at the incumbent (both runs of a seed
   * see the same noise stream): the other reading of "median regret of bayes over random". The goal
   * column reads the ratio of the medians, as the issue states it; this one is printed beside it
   * because a ratio of medians can pass while bayes loses to random on most seeds, or the reverse.
   */
  static double medianOfRatios(Regret[] bayes, Regret[] random, int checkpoint) {
    double[] v = new double[bayes.length];
    for (int i = 0; i < v.length; i++) {
      double r = random[i].atIncumbent()[checkpoint];
      double b = bayes[i].atIncumbent()[checkpoint];
      v[i] = r > 0 ? b / r : (b > 0 ? Double.POSITIVE_INFINITY : 1);
    }
    return median(v);
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** Suggestions timed after the first at each size; their median and maximum are printed. */
  private static final int WARM_SUGGESTIONS = 5;

  /**
   * The time of suggest() at 40, 50, 100, 200 observations with 20 knobs, and at 200 with 40 knobs
   * and with 20 and 40 numeric knobs (where {@code portfolio=hedge} hedges two models): the first
   * suggestion of a new optimizer (cold: no warm start for the hyperparameters) and the next {@link
   * #WARM_SUGGESTIONS}, each after one more observation, as in a session. One untimed optimizer
   * runs first, so that the timings are of compiled code, not of the JIT compiling it on the same
   * two cores; a single timing on a shared machine is unreliable, hence the median and maximum.
   */
  static void timeSuggest(PrintStream out, Map<String, String> options) {
    SearchSpace space = twentyKnobs("");
    OptimizerSpec spec = OptimizerSpec.of(space, Objective.maximize("tps")).withSeed(3);
    // references measured in this run, so the ratios travel between machines
    Optimizer random = Optimizers.create(OptimizerKind.RANDOM, spec, Map.of());
    long t0 = System.nanoTime();
    for (int i = 0; i < 200; i++) {
      random.suggest();
    }
    double randomMs = (System.nanoTime() - t0) / 1e6 / 200;
    double choleskyMs = choleskyMillis(200);
    out.printf(
        "%nsuggest() time (%s); references: one random suggest (20 knobs) %.3f ms,"
            + " one 200x200 Cholesky %.2f ms%n",
        options, randomMs, choleskyMs);
    long warmUp = System.nanoTime();
    // both fitting paths: all observations (up to 80) and a subset of them (past 80)
    timings(space, spec, options, 50, 3);
    timings(space, spec, options, 100, 3);
    out.printf("(JIT warm-up: %.0f s untimed)%n", (System.nanoTime() - warmUp) / 1e9);
    out.printf(
        "%-11s %-12s %9s %12s %9s %14s %16s %6s%n",
        "knobs",
        "observations",
        "cold ms",
        "warm median",
        "warm max",
        "median/random",
        "median/cholesky",
        "goal");
    SearchSpace forty = new SearchSpace("forty-knobs", fortyKnobs());
    // spaces of numeric knobs alone are where portfolio=hedge hedges two models (a suggestion
    // fits and searches twice): timed too, marked "numeric"
    SearchSpace numeric20 = numericKnobs(20);
    SearchSpace numeric40 = numericKnobs(40);
    SearchSpace[] spaces = {space, space, space, space, forty, numeric20, numeric40};
    int[] observations = {40, 50, 100, 200, 200, 200, 200};
    for (int row = 0; row < spaces.length; row++) {
      SearchSpace s = spaces[row];
      int n = observations[row];
      double[] ms = timings(s, spec.withSpace(s), options, n, WARM_SUGGESTIONS);
      double[] warm = Arrays.copyOfRange(ms, 1, ms.length);
      Arrays.sort(warm);
      double median = warm[warm.length / 2];
      double worst = Math.max(ms[0], warm[warm.length - 1]);
      double goalMs = s.size() <= 20 ? 1000 : 3000;
      out.printf(
          "%-11s %-12d %9.0f %12.0f %9.0f %14.0f %16.1f %6s%n",
          s.size() + (s.source().startsWith("numeric") ? " numeric" : ""),
          n,
          ms[0],
          median,
          warm[warm.length - 1],
          median / randomMs,
          median / choleskyMs,
          n == 200 ? (worst < goalMs ? "met" : "MISSED") : "");
    }
  }

  /** {@code count} numeric knobs: alternately log-scaled integers and linear reals. */
  private static SearchSpace numericKnobs(int count) {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      knobs.add(i % 2 == 0 ? logKnob("log" + i) : linearKnob("lin" + i));
    }
    return new SearchSpace("numeric-" + count, knobs);
  }

  /** An integer in kB from 1 to 65536 on the log scale, 64 by default (work_mem's kind). */
  private static Knob logKnob(String name) {
    return new Knob(name, KnobType.INTEGER, 1, 65536, Scale.LOG, "kB", null, null, null, 64L, "");
  }

  /** A real from 0 to 10, 5 by default. */
  private static Knob linearKnob(String name) {
    return new Knob(name, KnobType.REAL, 0, 10, Scale.LINEAR, "", null, null, null, 5.0, "");
  }

  private static List<Knob> fortyKnobs() {
    List<Knob> knobs = new ArrayList<>(twentyKnobs("").knobs());
    knobs.addAll(twentyKnobs("b_").knobs());
    return knobs;
  }

  /**
   * Milliseconds of the first suggest() of a Bayes optimizer given {@code n} observations, then of
   * {@code warm} more, each after observing the previous suggestion.
   */
  private static double[] timings(
      SearchSpace space, OptimizerSpec spec, Map<String, String> options, int n, int warm) {
    Optimizer bayes = Optimizers.create(OptimizerKind.BAYES, spec, options);
    Random r = new Random(n);
    Optimizer source = Optimizers.create(OptimizerKind.RANDOM, spec.withSeed(n), Map.of());
    for (int i = 0; i < n; i++) {
      Configuration c = source.suggest();
      source.observe(c, Outcome.ok("tps", 0));
      bayes.observe(c, Outcome.ok("tps", syntheticTps(space, c, r)));
    }
    double[] ms = new double[warm + 1];
    for (int i = 0; i <= warm; i++) {
      long a = System.nanoTime();
      Configuration c = bayes.suggest();
      ms[i] = (System.nanoTime() - a) / 1e6;
      bayes.observe(c, Outcome.ok("tps", syntheticTps(space, c, r)));
    }
    return ms;
  }

  private static double choleskyMillis(int n) {
    Random r = new Random(1);
    double[][] x = new double[n][5];
    for (double[] row : x) {
      for (int d = 0; d < 5; d++) {
        row[d] = r.nextDouble();
      }
    }
    double[][] k = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int d = 0; d < 5; d++) {
          s += (x[i][d] - x[j][d]) * (x[i][d] - x[j][d]);
        }
        k[i][j] = Math.exp(-s) + (i == j ? 1e-3 : 0);
      }
    }
    for (int warm = 0; warm < 20; warm++) {
      new CholeskyDecomposition(new Array2DRowRealMatrix(k));
    }
    long a = System.nanoTime();
    for (int rep = 0; rep < 20; rep++) {
      new CholeskyDecomposition(new Array2DRowRealMatrix(k));
    }
    return (System.nanoTime() - a) / 1e6 / 20;
  }

  /**
   * A plausible mix of PostgreSQL-like knobs: 20 of them, numeric, log, enum, bool, conditional.
   */
  static SearchSpace twentyKnobs(String prefix) {
    List<Knob> knobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      knobs.add(logKnob(prefix + "log" + i));
    }
    for (int i = 0; i < 6; i++) {
      knobs.add(linearKnob(prefix + "lin" + i));
    }
    for (int i = 0; i < 3; i++) {
      knobs.add(
          new Knob(
              prefix + "enum" + i,
              KnobType.ENUM,
              0,
              0,
              Scale.LINEAR,
              "",
              List.of("a", "b", "c"),
              null,
              null,
              "a",
              ""));
    }
    knobs.add(
        new Knob(
            prefix + "flag",
            KnobType.BOOL,
            0,
            0,
            Scale.LINEAR,
            "",
            List.of("on", "off"),
            null,
            null,
            "on",
            ""));
    knobs.add(
        new Knob(
            prefix + "workers",
            KnobType.INTEGER,
            1,
            32,
            Scale.LINEAR,
            "",
            null,
            null,
            new org.pgknob.space.Condition(prefix + "enum0", List.of("a")),
            3L,
            ""));
    knobs.add(
        new Knob(
            prefix + "flag2",
            KnobType.BOOL,
            0,
            0,
            Scale.LINEAR,
            "",
            List.of("on", "off"),
            null,
            null,
            "off",
            ""));
    return new SearchSpace(prefix + "twenty-knobs", knobs);
  }

  private static double syntheticTps(SearchSpace space, Configuration c, Random r) {
    double s = 1000;
    for (Knob k : space.knobs()) {
      Object v = c.valueOrDefault(k.name(), space);
      if (k.isNumeric() && v != null) {
        double u = org.pgknob.space.UnitCubeEncoder.toUnit(k, ((Number) v).doubleValue());
        s += 50 * Math.sin(3 * u + k.name().length());
      } else if (v != null) {
        s += 20 * k.choices().indexOf(v.toString());
      }
    }
    return s * (1 + 0.02 * r.nextGaussian());
  }
}
