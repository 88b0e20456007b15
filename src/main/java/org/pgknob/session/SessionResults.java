package org.pgknob.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.pgknob.measure.Instability;
import org.pgknob.measure.PairedRatio;
import org.pgknob.measure.RunNoise;
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
            new SessionMeasurements(trials, Objectives.LATENCY).summary()),
        knobSelection());
  }

  /**
   * Each Bayesian track's knobs, searched or not, and why, as chosen after the trials logged; empty
   * before any track's Bayesian phase began.
   */
  private List<Summary.KnobChoice> knobSelection() {
    List<Summary.KnobChoice> out = new ArrayList<>();
    for (SessionPlan.BayesTrack t : plan.bayes()) {
      boolean started =
          trials.stream().anyMatch(r -> r.phase().equals("bayes") && t.track().equals(r.track()));
      if (!started) {
        continue;
      }
      KnobSelection.Result result =
          BayesKnobs.select(
              context,
              t.track(),
              t.iterations(),
              inputs.tracks().contains("reload"),
              trials,
              inputs.objective());
      for (KnobSelection.Choice c : result.choices()) {
        out.add(
            new Summary.KnobChoice(
                t.track(),
                c.knob(),
                c.searched(),
                finite(c.sweepNoiseMultiple()),
                finite(c.modelNoiseMultiple()),
                finite(c.modelIndex()),
                c.addedAfterTrial(),
                c.reason()));
      }
    }
    return out;
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : null;
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
    return comparedWithPgTune(rows);
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
    // A metric the workload did not report (a --workload-cmd printing only its value) has no
    // ratio: it is left out rather than compared as zeros.
    Summary.Ratio tpsRatio =
        ValidationStats.measured(tps) ? pooledRatio(tps, Objectives.TPS) : null;
    Summary.Ratio latencyRatio =
        ValidationStats.measured(latency) ? pooledRatio(latency, Objectives.LATENCY) : null;
    String verdict =
        (tpsRatio == null ? "TPS not measured" : ValidationStats.verdict(tpsRatio, "TPS", false))
            + "; "
            + (latencyRatio == null
                ? "latency not measured"
                : ValidationStats.verdict(latencyRatio, "latency", true))
            + instability(candidates);
    return row(name, candidates, settings, tpsRatio, latencyRatio, verdict);
  }

  /**
   * The paired ratio B/A with its 95% interval, its spread combining the pairs' own with the run
   * noise pooled from every repeated configuration of the session ({@link PairedRatio}): a few
   * pairs then decide what their own 2 or 3 degrees of freedom could not.
   */
  private Summary.Ratio pooledRatio(List<double[]> pairs, String objective) {
    double[] a = pairs.stream().mapToDouble(p -> p[0]).toArray();
    double[] b = pairs.stream().mapToDouble(p -> p[1]).toArray();
    RunNoise noise = new SessionMeasurements(trials, objective).noise();
    PairedRatio r = PairedRatio.of(a, b, ValidationStats.CONFIDENCE, noise);
    return new Summary.Ratio(r.estimate(), r.low(), r.high(), r.pairs());
  }

  /**
   * "; unstable: ..." when the candidate's runs disagree beyond the session's noise (an F test at
   * 1%): such a configuration is judged by its worst run, which the verdict names.
   */
  private String instability(List<TrialResult> candidates) {
    double[] runs =
        candidates.stream().mapToDouble(t -> Objectives.value(t, Objectives.TPS)).toArray();
    RunNoise noise = new SessionMeasurements(trials, Objectives.TPS).noise();
    Instability rule = new Instability(0.01);
    if (!rule.unstable(runs, noise)) {
      return "";
    }
    return String.format(
        java.util.Locale.ROOT,
        "; unstable: its runs disagree beyond the noise (%.1f%%), its worst gave %.0f TPS",
        100 * noise.cv(),
        rule.rankingValue(runs, true, noise));
  }

  /**
   * Adds to each validated optimum measured below the PGTune-style row in the same rounds a note
   * that says so: users compare against PGTune first.
   */
  private static List<Summary.ResultRow> comparedWithPgTune(List<Summary.ResultRow> rows) {
    Summary.ResultRow pgtune =
        rows.stream()
            .filter(r -> r.name().equals("pgtune") && r.tpsRatio() != null)
            .findFirst()
            .orElse(null);
    if (pgtune == null) {
      return rows;
    }
    List<Summary.ResultRow> out = new ArrayList<>();
    for (Summary.ResultRow r : rows) {
      if (r.name().contains("/")
          && r.tpsRatio() != null
          && r.tpsRatio().estimate() < pgtune.tpsRatio().estimate()) {
        r =
            new Summary.ResultRow(
                r.name(),
                r.track(),
                r.objective(),
                r.settings(),
                r.tps(),
                r.nopm(),
                r.latencyAvgMs(),
                r.latencyP95Ms(),
                r.tpsRatio(),
                r.latencyRatio(),
                r.trials(),
                r.verdict()
                    + String.format(
                        java.util.Locale.ROOT,
                        "; measured below PGTune-style (%.2fx against %.2fx TPS)",
                        r.tpsRatio().estimate(),
                        pgtune.tpsRatio().estimate()));
      }
      out.add(r);
    }
    return out;
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
        ServerChanges.only(settings, context.serverSettings()), // "changed N" counts real changes
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
              trials,
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
