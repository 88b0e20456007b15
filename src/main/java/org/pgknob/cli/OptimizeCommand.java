package org.pgknob.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pgknob.AtomicFiles;
import org.pgknob.Json;
import org.pgknob.PgknobException;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.Direction;
import org.pgknob.optimize.History;
import org.pgknob.optimize.KnobSensitivity;
import org.pgknob.optimize.MidpointDefaults;
import org.pgknob.optimize.Objective;
import org.pgknob.optimize.Optimizer;
import org.pgknob.optimize.OptimizerKind;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.Optimizers;
import org.pgknob.optimize.Outcome;
import org.pgknob.optimize.SurrogateKind;
import org.pgknob.optimize.Sweep;
import org.pgknob.optimize.SweepPlan;
import org.pgknob.runs.RunFiles;
import org.pgknob.session.TrialLog;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.SearchSpaceFile;
import org.pgknob.trial.CommandTrial;
import org.pgknob.workload.command.CommandObjective;
import org.pgknob.workload.command.CommandOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Tunes any command that prints a number: the optimizers without PostgreSQL. */
@Command(
    name = "optimize",
    mixinStandardHelpOptions = true,
    description = {
      "Optimize the value printed by any command over a search space.",
      "Each trial runs CMD with sh -c, the configuration on stdin as one JSON object;"
          + " CMD prints {\"value\": N} or {\"status\": \"failed\", \"reason\": \"...\"}."
    })
public final class OptimizeCommand implements Callable<Integer> {
  static final String METRIC = "value";

  @Spec CommandSpec spec;

  @Option(
      names = "--space",
      required = true,
      paramLabel = "FILE",
      description = "Search-space YAML file (ranges; defaults from 'default:' or range midpoints).")
  Path spaceFile;

  @Option(
      names = "--objective-cmd",
      required = true,
      paramLabel = "CMD",
      description = "Command run per trial through sh -c.")
  String objectiveCommand;

  @Option(names = "--budget", required = true, paramLabel = "N", description = "Trials to run.")
  int budget;

  @Option(
      names = "--optimizer",
      defaultValue = "bayes",
      paramLabel = "NAME",
      description = "bayes, random or sweep (default: ${DEFAULT-VALUE}).")
  String optimizer;

  @Option(
      names = "--surrogate",
      defaultValue = "gp",
      paramLabel = "MODEL",
      description = "Model of bayes: gp (Gaussian process) or rf (random forest) (default: gp).")
  String surrogate;

  @Option(
      names = "--direction",
      defaultValue = "minimize",
      paramLabel = "DIR",
      description = "minimize or maximize the value (default: ${DEFAULT-VALUE}).")
  Direction direction;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "1",
      description = "Random seed (default: 1).")
  long seed;

  @Option(
      names = "--trial-timeout",
      defaultValue = "0",
      paramLabel = "SECONDS",
      description = "Stop a trial after this long and count it failed; 0 for no limit.")
  long trialTimeoutSeconds;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Folder for trials.jsonl, in the trial record format of sessions, and optimize.json"
              + " (default: runs/optimize-<time>).")
  Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter w = spec.commandLine().getOut();
    if (budget < 1) {
      throw new PgknobException(
          "--budget must be at least 1, but got " + budget, "give the number of trials to run");
    }
    if (trialTimeoutSeconds < 0) {
      throw new PgknobException(
          "--trial-timeout must be >= 0, but got " + trialTimeoutSeconds, "0 means no limit");
    }
    SearchSpace space = MidpointDefaults.apply(SearchSpaceFile.load(spaceFile));
    Objective objective = new Objective(METRIC, direction);
    OptimizerSpec optimizerSpec = OptimizerSpec.of(space, objective).withSeed(seed);
    OptimizerKind kind = OptimizerKind.of(optimizer);
    Optimizer opt =
        switch (kind) {
          case BAYES -> Optimizers.bayes(optimizerSpec, SurrogateKind.of(surrogate));
          case RANDOM -> Optimizers.random(optimizerSpec);
          case SWEEP -> Optimizers.sweep(optimizerSpec, SweepPlan.all());
        };
    Path dir = out != null ? out : defaultOut();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new PgknobException(
          dir + " is not a folder", "give --out a folder for trials.jsonl (it is created if new)");
    }
    Path log = dir.resolve(RunFiles.TRIALS);
    if (Files.exists(log)) {
      throw new PgknobException(
          log + " already exists", "choose another --out folder or remove the file");
    }
    Files.createDirectories(dir);
    AtomicFiles.write(
        dir.resolve(RunFiles.OPTIMIZE),
        Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(inputs(kind)));
    TrialLog trials = new TrialLog(log);
    CommandObjective command =
        new CommandObjective(objectiveCommand, METRIC, Duration.ofSeconds(trialTimeoutSeconds));
    w.printf(
        "pgknob optimize: %s, %d knobs, budget %d, trials in %s%n",
        opt.name(), space.size(), budget, log);
    w.flush();
    int bestTrial = 0;
    double bestValue = Double.NaN;
    Map<String, Object> bestConfig = Map.of();
    int ran = 0;
    String firstFailure = null;
    for (int k = 1; k <= budget && !opt.isExhausted(); k++) {
      Configuration suggested = opt.suggest();
      Map<String, Object> config =
          new LinkedHashMap<>(History.effective(space, suggested).values());
      Instant started = Instant.now();
      long start = System.nanoTime();
      CommandOutcome run;
      try {
        run = command.run(config);
      } catch (PgknobException e) {
        if (ran == 0) {
          Files.deleteIfExists(dir.resolve(RunFiles.OPTIMIZE)); // leave the folder reusable
        }
        throw e;
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Outcome outcome = outcome(run);
      opt.observe(suggested, outcome);
      ran++;
      trials.append(
          CommandTrial.record(
              k,
              OptimizerKind.of(optimizer),
              suggested,
              space,
              outcome,
              run.timedOut(),
              started,
              seconds));
      if (outcome.isOk()) {
        double v = outcome.value(METRIC).getAsDouble();
        if (Double.isNaN(bestValue) || direction.better(v, bestValue)) {
          bestValue = v;
          bestTrial = k;
          bestConfig = config;
        }
        w.printf(Locale.ROOT, "trial %d/%d: %s (best %s)%n", k, budget, fmt(v), fmt(bestValue));
      } else {
        firstFailure = firstFailure == null ? outcome.reason() : firstFailure;
        w.printf("trial %d/%d: failed: %s%n", k, budget, outcome.reason());
      }
      w.flush();
    }
    if (Double.isNaN(bestValue)) {
      throw new PgknobException(
          "all " + ran + " trials failed; the first: " + firstFailure,
          "run the command by hand with a configuration on stdin, e.g. echo '{...}' | "
              + objectiveCommand);
    }
    if (ran < budget) {
      w.printf("the %s finished after %d trials%n", opt.name(), ran);
    }
    w.printf(
        "best value %s at trial %d: %s%n",
        fmt(bestValue), bestTrial, Json.mapper().writeValueAsString(bestConfig));
    summary(w, opt, space);
    w.flush();
    return ExitCodes.OK;
  }

  /** What the optimizer learned: Bayes's incumbent and knob importance, the sweep's ranking. */
  private static void summary(PrintWriter w, Optimizer opt, SearchSpace space) throws IOException {
    if (opt instanceof Bayes bayes) {
      var incumbent = bayes.incumbent();
      if (incumbent.isPresent()) {
        w.printf(
            "model's best (posterior mean %s, observed %s over %d run%s): %s%n",
            fmt(incumbent.get().predictedValue()),
            fmt(incumbent.get().observedMean()),
            incumbent.get().runs(),
            incumbent.get().runs() == 1 ? "" : "s",
            Json.mapper()
                .writeValueAsString(
                    History.effective(space, incumbent.get().configuration()).values()));
      }
      Map<String, Double> importance = bayes.knobImportance();
      if (!importance.isEmpty()) {
        w.println("knob importance (model):");
        importance.forEach((k, v) -> w.printf(Locale.ROOT, "  %-32s %5.1f%%%n", k, 100 * v));
      }
    } else if (opt instanceof Sweep sweep) {
      w.println("sensitivity (one knob at a time, against the baseline):");
      for (KnobSensitivity s : sweep.analysis(Double.NaN).ranking()) {
        w.printf("  %-32s %s%n", s.knob(), s.summary());
      }
    }
  }

  /** The command's run as the optimizer takes it: its numbers, or a failure with its reason. */
  private static Outcome outcome(CommandOutcome run) {
    return run.isOk() ? Outcome.ok(run.metrics()) : Outcome.failed(run.reason());
  }

  /**
   * What optimize.json records: the run's inputs, and what marks the folder as an optimize run for
   * {@code pgknob report}. Not the command: it may hold a password.
   */
  private Map<String, Object> inputs(OptimizerKind kind) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("optimizer", kind.label());
    if (kind == OptimizerKind.BAYES) {
      m.put("surrogate", SurrogateKind.of(surrogate).label());
    }
    m.put("space", spaceFile.toAbsolutePath().toString());
    m.put("metric", METRIC);
    m.put("direction", direction.name().toLowerCase(Locale.ROOT));
    m.put("budget", budget);
    m.put("seed", seed);
    return m;
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.6g", v);
  }

  private static Path defaultOut() {
    return Path.of(
        "runs",
        "optimize-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
  }
}
