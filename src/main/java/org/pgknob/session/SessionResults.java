package org.pgknob.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.KnobSensitivity;
import org.pgknob.optimize.Observation;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.Optimizers;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.report.Summary;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.TrialResult;

/**
 * The results of a session from its logged trials alone: the noise level, the validated rows
 * (defaults, PGTune-style, the optima per track and objective), the sweep and model rankings.
 */
final class SessionResults {
  private final TuningSession.SessionContext context;
  private final SessionInputs inputs;
  private final SessionPlan plan;
  private final List<TrialResult> trials;

  SessionResults(
      TuningSession.SessionContext context,
      SessionInputs inputs,
      SessionPlan plan,
      List<TrialResult> trials) {
    this.context = context;
    this.inputs = inputs;
    this.plan = plan;
    this.trials = List.copyOf(trials);
  }

  Summary summary(SessionState state, String restored) {
    List<Summary.ResultRow> rows = rows();
    double seconds = Duration.between(state.createdAt(), state.updatedAt()).toMillis() / 1000.0;
    return new Summary(
        state.id(),
        state.status().label(),
        state.createdAt(),
        state.updatedAt(),
        state.machine(),
        state.postgresVersion(),
        state.target(),
        inputs.workloadDescription(),
        new Summary.Budget(plan.totalTrials(), trials.size(), budgetSeconds(), seconds),
        noise(),
        rows,
        sweepRanking(),
        modelRanking(),
        restored,
        trials.stream()
            .filter(t -> t.resources().disturbedByOtherProcesses())
            .map(TrialResult::trial)
            .toList(),
        List.of(
            new SessionMeasurements(trials, Objectives.TPS).summary(),
            new SessionMeasurements(trials, Objectives.LATENCY).summary()));
  }

  /** The settings of the best validated gain, preferring restart over reload, for --apply best. */
  Optional<Map<String, String>> bestSettings() {
    for (String name : List.of("restart/" + inputs.objective(), "reload/" + inputs.objective())) {
      for (Summary.ResultRow row : rows()) {
        Summary.Ratio r = "tps".equals(inputs.objective()) ? row.tpsRatio() : row.latencyRatio();
        boolean gain =
            r != null
                && r.excludesOne()
                && ("tps".equals(inputs.objective()) ? r.low() > 1 : r.high() < 1);
        if (row.name().equals(name) && gain) {
          return Optional.of(row.settings());
        }
      }
    }
    return Optional.empty();
  }

  private double budgetSeconds() {
    Budget b = Budget.parse(inputs.budget());
    return b.wallTime() == null ? 0 : b.wallTime().toSeconds();
  }

  private Summary.Noise noise() {
    List<TrialResult> baseline = phase(Phase.BASELINE);
    try {
      return ValidationStats.noise(baseline);
    } catch (org.pgknob.PgknobException e) {
      return null;
    }
  }

  private List<Summary.ResultRow> rows() {
    List<Summary.ResultRow> rows = new ArrayList<>();
    List<TrialResult> defaults = new ArrayList<>(ok(phase(Phase.BASELINE)));
    List<String> validatedNames = new ArrayList<>();
    Map<String, List<TrialResult[]>> pairs = new LinkedHashMap<>();
    for (SessionPlan.Validation v : plan.validations()) {
      validatedNames.add(v.name());
      pairs.put(v.name(), pairsOf(v.name()));
      for (TrialResult[] p : pairs.get(v.name())) {
        if (p[0] != null && p[0].isOk() && !defaults.contains(p[0])) {
          defaults.add(p[0]);
        }
      }
    }
    rows.add(row("defaults", defaults, Map.of(), null, null, "the server's defaults"));
    for (String name : validatedNames) {
      rows.add(validatedRow(name, pairs.get(name)));
    }
    boolean searched = !plan.sweeps().isEmpty() || !plan.bayes().isEmpty();
    for (String track : searched ? inputs.tracks() : List.<String>of()) {
      for (String objective : SessionInputs.OBJECTIVES) {
        String name = track + "/" + objective;
        if (!validatedNames.contains(name)) {
          rows.add(unvalidatedRow(name));
        }
      }
    }
    if (searched && !validatedNames.contains("pgtune")) {
      // Not measured, but its settings are still worth exporting and comparing later.
      rows.add(
          row(
              "pgtune",
              List.of(),
              PgTuneSettings.compute(context),
              null,
              null,
              "not validated against the baseline (the budget left no room); measure it with"
                  + " pgknob compare"));
    }
    return rows;
  }

  private Summary.ResultRow validatedRow(String name, List<TrialResult[]> pairs) {
    List<double[]> tps = new ArrayList<>();
    List<double[]> latency = new ArrayList<>();
    List<TrialResult> candidates = new ArrayList<>();
    Map<String, String> settings = Map.of();
    for (TrialResult[] p : pairs) {
      if (p[1] != null) {
        settings = p[1].settings();
      }
      if (p[0] != null && p[1] != null && p[0].isOk() && p[1].isOk()) {
        tps.add(new double[] {Objectives.value(p[0], "tps"), Objectives.value(p[1], "tps")});
        latency.add(
            new double[] {Objectives.value(p[0], "latency"), Objectives.value(p[1], "latency")});
        candidates.add(p[1]);
      }
    }
    if (tps.size() < 2) {
      return row(
          name,
          candidates,
          settings,
          null,
          null,
          "not validated: fewer than 2 pairs succeeded (" + failures(pairs) + ")");
    }
    Summary.Ratio tpsRatio = ValidationStats.ratio(tps);
    Summary.Ratio latencyRatio = ValidationStats.ratio(latency);
    String verdict =
        ValidationStats.verdict(tpsRatio, "TPS", false)
            + "; "
            + ValidationStats.verdict(latencyRatio, "latency", true);
    return row(name, candidates, settings, tpsRatio, latencyRatio, verdict);
  }

  private Summary.ResultRow unvalidatedRow(String name) {
    String[] parts = name.split("/");
    SearchSpace space = context.trackSpace(parts[0]);
    OptimizerSpec spec =
        new OptimizerSpec(space, Objectives.of(parts[1]), inputs.seed(), c -> true, true);
    Bayes model = (Bayes) Optimizers.create("bayes", spec, Map.of("surrogate", inputs.surrogate()));
    for (Observation o : Objectives.correctedWithin(space, trials, t -> !isValidation(t))) {
      model.observe(o.configuration(), o.outcome());
    }
    Optional<Configuration> best = model.incumbent().map(i -> i.configuration());
    if (best.isEmpty()) {
      return row(name, List.of(), Map.of(), null, null, "no successful trial in this track");
    }
    List<TrialResult> runs = new ArrayList<>();
    for (TrialResult t : ok(trials)) {
      if (!isValidation(t)
          && space.names().containsAll(t.config().keySet())
          && Configuration.normalized(t.config(), space).equals(best.get())) {
        runs.add(t);
      }
    }
    return row(
        name,
        runs,
        best.get().rendered(space),
        null,
        null,
        "not validated against the baseline (the budget left no room); best of the search");
  }

  /** Per validation round, the round's baseline run (A) and this candidate's run (B). */
  private List<TrialResult[]> pairsOf(String name) {
    Map<Integer, TrialResult[]> byRound = new LinkedHashMap<>();
    for (TrialResult t : phase(Phase.VALIDATION)) {
      Step step = plan.steps().get(t.trial() - 1);
      boolean baseline = step.side().equals("A");
      if (!baseline && !step.subject().equals(name)) {
        continue;
      }
      TrialResult[] p = byRound.computeIfAbsent(step.index(), k -> new TrialResult[2]);
      p[baseline ? 0 : 1] = t;
    }
    return new ArrayList<>(byRound.values());
  }

  private Summary.ResultRow row(
      String name,
      List<TrialResult> runs,
      Map<String, String> settings,
      Summary.Ratio tpsRatio,
      Summary.Ratio latencyRatio,
      String verdict) {
    String track = name.contains("/") ? name.split("/")[0] : "";
    String objective = name.contains("/") ? name.split("/")[1] : "";
    return new Summary.ResultRow(
        name,
        track,
        objective,
        settings,
        mean(runs, t -> Objectives.value(t, "tps")),
        mean(runs, t -> t.workload().nopm()),
        mean(runs, t -> t.workload().overall().avgMs()),
        mean(runs, t -> t.workload().overall().p95Ms()),
        tpsRatio,
        latencyRatio,
        runs.stream().map(TrialResult::trial).toList(),
        verdict);
  }

  private List<Summary.KnobImportance> sweepRanking() {
    List<Observation> observations =
        Objectives.within(
            context.space(),
            trials,
            t -> t.phase().equals("baseline") || t.phase().equals("sweep"));
    SweepAnalysis analysis =
        SweepAnalysis.of(
            context.space(), Objectives.of(inputs.objective()), observations, Double.NaN);
    List<Summary.KnobImportance> out = new ArrayList<>();
    for (KnobSensitivity s : analysis.ranking()) {
      out.add(new Summary.KnobImportance(s.knob(), s.rangeFraction(), s.summary()));
    }
    return out;
  }

  /**
   * The model's ranking over the knobs the last track's Bayesian phase searched (a model over every
   * knob of the space would need far more trials than a session has to say anything).
   */
  private List<Summary.KnobImportance> modelRanking() {
    SearchSpace space = context.space();
    if (!plan.bayes().isEmpty()) {
      SessionPlan.BayesTrack last = plan.bayes().get(plan.bayes().size() - 1);
      space =
          BayesKnobs.choose(
              context,
              last.track(),
              last.iterations(),
              inputs.tracks().contains("reload"),
              trials.stream()
                  .filter(t -> t.phase().equals("baseline") || t.phase().equals("sweep"))
                  .toList(),
              inputs.objective());
    }
    OptimizerSpec spec =
        new OptimizerSpec(space, Objectives.of(inputs.objective()), inputs.seed(), c -> true, true);
    Bayes model = (Bayes) Optimizers.create("bayes", spec, Map.of("surrogate", inputs.surrogate()));
    for (Observation o : Objectives.correctedWithin(space, trials, t -> !isValidation(t))) {
      model.observe(o.configuration(), o.outcome());
    }
    List<Summary.KnobImportance> out = new ArrayList<>();
    model
        .knobImportance()
        .forEach(
            (knob, share) ->
                out.add(
                    new Summary.KnobImportance(
                        knob,
                        share,
                        String.format(
                            java.util.Locale.ROOT,
                            "%.0f%% of the model's sensitivity",
                            100 * share))));
    return out;
  }

  private List<TrialResult> phase(Phase phase) {
    return trials.stream().filter(t -> t.phase().equals(phase.label())).toList();
  }

  private static List<TrialResult> ok(List<TrialResult> list) {
    return list.stream().filter(TrialResult::isOk).toList();
  }

  private static boolean isValidation(TrialResult t) {
    return Phase.VALIDATION.label().equals(t.phase());
  }

  private static String failures(List<TrialResult[]> pairs) {
    List<String> out = new ArrayList<>();
    for (TrialResult[] p : pairs) {
      for (TrialResult t : p) {
        if (t != null && !t.isOk()) {
          out.add("trial " + t.trial() + " " + t.status());
        }
      }
    }
    return out.isEmpty() ? "too few pairs ran" : String.join(", ", out);
  }

  private static double mean(List<TrialResult> runs, ToDoubleFunction<TrialResult> f) {
    return runs.isEmpty() ? 0 : runs.stream().mapToDouble(f).average().orElse(0);
  }
}
