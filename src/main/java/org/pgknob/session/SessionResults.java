package org.pgknob.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;
import org.pgknob.measure.DetectableEffect;
import org.pgknob.measure.Instability;
import org.pgknob.measure.PairedRatio;
import org.pgknob.measure.RunNoise;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.runs.Goal;
import org.pgknob.runs.ResultKey;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.safety.SafetyContext;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.TpccFigures;

/**
 * The results of a session from its logged trials alone: the noise level, the validated rows
 * (defaults, PGTune-style, the optima per track and objective), the sweep and model rankings.
 */
final class SessionResults {
  private final SessionContext context;
  private final SessionInputs inputs;
  private final SessionPlan plan;
  private final List<TrialResult> trials;
  private final SessionKnobs knobs;

  SessionResults(
      SessionContext context, SessionInputs inputs, SessionPlan plan, List<TrialResult> trials) {
    this.context = context;
    this.inputs = inputs;
    this.plan = plan;
    this.trials = List.copyOf(trials);
    this.knobs = new SessionKnobs(context, inputs, plan, this.trials);
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
        knobs.sweepRanking(),
        knobs.modelRanking(),
        restored,
        trials.stream()
            .filter(t -> t.resources().disturbedByOtherProcesses())
            .map(TrialResult::trial)
            .toList(),
        trials.stream().filter(t -> t.disturbedWindow() != null).map(TrialResult::trial).toList(),
        List.of(
            new SessionMeasurements(trials, Goal.TPS).summary(),
            new SessionMeasurements(trials, Goal.LATENCY).summary()),
        null,
        knobs.selection());
  }

  /** The settings of the best validated gain, preferring restart over reload, for --apply best. */
  Optional<Map<String, String>> bestSettings() {
    for (String name : List.of("restart/" + inputs.objective(), "reload/" + inputs.objective())) {
      for (Summary.ResultRow row : rows()) {
        if (row.name().equals(name) && row.claimsGain(inputs.objective())) {
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
    List<String> validatedNames = new ArrayList<>();
    Map<String, List<TrialResult[]>> pairs = new LinkedHashMap<>();
    for (SessionPlan.Validation v : plan.validations()) {
      validatedNames.add(v.name());
      pairs.put(v.name(), pairsOf(v.name()));
    }
    rows.add(
        row(
            "defaults",
            defaultsRuns(ok(phase(Phase.BASELINE)), pairs.values()),
            Map.of(),
            null,
            null,
            "the server's defaults"));
    boolean picked = plan.validating() != null && searchDone();
    StepProposer proposer = new StepProposer(context, inputs, plan);
    List<TrialResult> search = picked ? trials.subList(0, plan.searchTrials()) : List.of();
    Map<String, String> twins = picked ? proposer.twins(search) : Map.of();
    Map<String, PickSimplifier.Result> picks = picked ? proposer.picks(search) : Map.of();
    boolean noLatency = Objectives.unreported(trials, Goal.LATENCY);
    for (String name : validatedNames) {
      int before = rows.size();
      boolean measured = pairs.get(name).stream().anyMatch(p -> p[1] != null);
      if (!measured && noLatency && isLatency(name)) {
        rows.add(notReported(name));
      } else if (!measured && twins.containsKey(name)) {
        // the same settings as an earlier pick: its runs of the same rounds stand for this one
        Summary.ResultRow twin = validatedRow(name, pairsOf(twins.get(name)));
        rows.add(
            twin.withVerdict(
                twin.verdict()
                    + "; the same configuration as "
                    + displayName(twins.get(name))
                    + ", measured once"));
      } else if (!measured && plan.validating() != null && !"pgtune".equals(name) && searchDone()) {
        rows.add(
            noChange(
                name,
                "the search's best is the server's defaults, so it was not measured against"
                    + " itself"));
      } else {
        rows.add(validatedRow(name, pairs.get(name)));
      }
      PickSimplifier.Result pick = picks.get(name);
      if (pick != null && pick.changed() && rows.size() > before) {
        rows.set(before, rows.get(before).withSimplified(simplified(pick)));
      }
    }
    boolean searched = !plan.sweeps().isEmpty() || !plan.bayes().isEmpty();
    Map<String, String> allTwins = new LinkedHashMap<>(twins);
    for (Track track : searched ? inputs.tracks() : List.<Track>of()) {
      for (Goal objective : List.of(Goal.values())) {
        String name = track + "/" + objective;
        if (validatedNames.contains(name)) {
          continue;
        }
        if (noLatency && objective == Goal.LATENCY) {
          rows.add(notReported(name));
          continue;
        }
        Optional<Configuration> best = searchBest(name);
        Summary.ResultRow unvalidated;
        Map<String, String> bestAsWritten;
        if (picked && best.isPresent()) {
          // the pick as validation would have measured it, as the stand-ins judged it
          PickSimplifier.Result pick = proposer.pick(name, search);
          unvalidated = unvalidatedPickRow(name, pick, search);
          bestAsWritten = changes(name, pick.pick());
        } else {
          unvalidated = unvalidatedRow(name, best);
          bestAsWritten = asWritten(name, best, proposer, search);
        }
        Optional<String> twin = validatedTwin(unvalidated, bestAsWritten, rows);
        if (twin.isPresent()) {
          // Its search's best is a pick validated already (the latency pick is usually the tps
          // one): that pick's validated figures, never the best single window of the search.
          // that pick may stand for an earlier one itself (reload/tps measured as restart/tps):
          // the runs are the measured one's
          String measured = twins.getOrDefault(twin.get(), twin.get());
          allTwins.put(name, measured);
          Summary.ResultRow row = validatedRow(name, pairsOf(measured));
          Summary.Simplified simplified =
              rows.stream()
                  .filter(r -> r.name().equals(twin.get()))
                  .findFirst()
                  .map(Summary.ResultRow::simplified) // null when it had none: empty then
                  .orElse(null);
          rows.add(
              row.withVerdict(
                      row.verdict()
                          + "; the same configuration as "
                          // the pick whose runs these are, not a twin of it
                          + displayName(measured)
                          + ", measured once")
                  .withSimplified(simplified));
        } else {
          rows.add(unvalidated);
        }
      }
    }
    if (searched && !validatedNames.contains("pgtune")) {
      // Not measured, but its settings are still worth exporting and comparing later.
      rows.add(
          row(
              "pgtune",
              List.of(),
              context.pgTune(),
              null,
              null,
              "not validated against the baseline (the budget left no room); measure it with"
                  + " pgknob compare"));
    }
    return withDiskWarnings(comparedWithPgTune(withRatioToPgTune(rows, allTwins)));
  }

  /** What {@code pick}'s simplification left at the defaults, as summary.json records it. */
  private static Summary.Simplified simplified(PickSimplifier.Result pick) {
    return new Summary.Simplified(
        pick.dropped(),
        -Math.expm1(-pick.predictedLoss()),
        -Math.expm1(-pick.lossUpperBound()),
        pick.describe());
  }

  /**
   * The validated pick with the settings of {@code unvalidated} (the same track's first), if one
   * was measured against the defaults: its settings as validated, or its search's best before the
   * simplification, which is written as a DBA writes it, as {@code unvalidatedAsWritten} is (an
   * unvalidated row is the search's best as it is, neither rounded nor simplified).
   */
  private static Optional<String> validatedTwin(
      Summary.ResultRow unvalidated,
      Map<String, String> unvalidatedAsWritten,
      List<Summary.ResultRow> rows) {
    // PGTune-style last: a pick of its configuration takes PGTune-style's runs
    return rows.stream()
        .filter(r -> r.tpsRatio() != null || r.latencyRatio() != null)
        .filter(
            r ->
                (r.track() != null && r.objective() != null)
                    || r.name().equals(AgainstPgTune.PGTUNE))
        .filter(
            r ->
                !r.settings().isEmpty()
                    && (StepProposer.sameConfiguration(r.settings(), unvalidated.settings())
                        || r.searchSettings().equals(unvalidatedAsWritten)))
        .sorted(
            java.util.Comparator.comparing(
                (Summary.ResultRow r) ->
                    r.track() == null ? 2 : r.track() == unvalidated.track() ? 0 : 1))
        .map(Summary.ResultRow::name)
        .findFirst();
  }

  /** True when the session logged every trial before validation. */
  private boolean searchDone() {
    return trials.size() >= plan.searchTrials();
  }

  /**
   * Each validated pick with its TPS against the PGTune-style row's from the same rounds ({@link
   * AgainstPgTune}; the verdict reads this figure, never one of its own).
   */
  private List<Summary.ResultRow> withRatioToPgTune(
      List<Summary.ResultRow> rows, Map<String, String> twins) {
    List<Summary.ResultRow> out = new ArrayList<>();
    for (Summary.ResultRow r : rows) {
      String measuredAs = twins.getOrDefault(r.name(), r.name());
      // PGTune-style's own configuration: its runs against themselves would read 1.00x
      Summary.Ratio toPgtune =
          isPick(r) && r.tpsRatio() != null && !measuredAs.equals(AgainstPgTune.PGTUNE)
              ? AgainstPgTune.of(measuredAs, trials, Goal.TPS).orElse(null)
              : null;
      out.add(
          toPgtune == null
              ? r
              : r.withVerdict(
                      r.verdict()
                          + String.format(
                              java.util.Locale.ROOT,
                              "; %.2fx PGTune-style's TPS (%.2f to %.2f)",
                              toPgtune.estimate(),
                              toPgtune.low(),
                              toPgtune.high()))
                  .withValidation(toPgtune, r.detectableGain()));
    }
    return out;
  }

  /** How a row's verdict names the configuration whose runs it shares. */
  private static String displayName(String measured) {
    return measured.equals(AgainstPgTune.PGTUNE) ? "PGTune-style" : measured;
  }

  /** A validated configuration other than the defaults and PGTune-style themselves. */
  private static boolean isPick(Summary.ResultRow r) {
    return !r.name().equals(AgainstPgTune.PGTUNE) && !r.name().equals("defaults");
  }

  /**
   * The runs the defaults' row shows: those of the validation rounds (the runs each ratio pairs
   * with) when any succeeded, else the baselines. A validated row shows its own runs of the same
   * rounds, so the table's TPS compares like with like, as the ratios do; the baselines ran at
   * another time, and a build beside two of them once put the defaults' row at 2714 TPS against the
   * picks' 3026 (an apparent 1.11x) while every round read about 1.01x.
   */
  static List<TrialResult> defaultsRuns(
      List<TrialResult> baselines, Collection<List<TrialResult[]>> pairsByCandidate) {
    List<TrialResult> rounds = new ArrayList<>();
    for (List<TrialResult[]> pairs : pairsByCandidate) {
      for (TrialResult[] p : pairs) {
        if (p[0] != null && p[0].isOk() && !rounds.contains(p[0])) {
          rounds.add(p[0]);
        }
      }
    }
    return rounds.isEmpty() ? baselines : rounds;
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
        tps.add(ValidationStats.pair(p[0], p[1], Goal.TPS));
        latency.add(ValidationStats.pair(p[0], p[1], Goal.LATENCY));
        candidates.add(p[1]);
      }
    }
    if (ServerChanges.only(settings, context.serverSettings()).isEmpty() && !candidates.isEmpty()) {
      // Its runs measured the defaults against themselves: no ratio, no claim, no export.
      return row(
          name,
          candidates,
          Map.of(),
          null,
          null,
          "no change found: the pick is the server's own settings");
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
    PairedRatio tpsPaired = ValidationStats.measured(tps) ? paired(tps, Goal.TPS) : null;
    PairedRatio latencyPaired =
        ValidationStats.measured(latency) ? paired(latency, Goal.LATENCY) : null;
    Summary.Ratio tpsRatio = ratio(tpsPaired);
    Summary.Ratio latencyRatio = ratio(latencyPaired);
    PairedRatio claimed =
        inputs.objective() == Goal.LATENCY && latencyPaired != null
            ? latencyPaired
            : tpsPaired != null ? tpsPaired : latencyPaired;
    double detectable = detectableGain(claimed);
    String verdict =
        (tpsRatio == null
                ? "TPS not measured"
                : ValidationStats.verdict(tpsRatio, "TPS", false, detectable))
            + "; "
            + (latencyRatio == null
                ? "latency not measured"
                : ValidationStats.verdict(latencyRatio, "latency", true, detectable))
            + instability(candidates);
    Summary.ResultRow r = row(name, candidates, settings, tpsRatio, latencyRatio, verdict);
    return r.withValidation(null, detectable);
  }

  /**
   * The smallest gain a comparison like this one can tell from noise ({@link DetectableEffect}: 5%
   * two-sided error, 80% power) with its pairs and the spread its interval used. A gain smaller
   * than this is not claimed, even when its interval happens to exclude 1.
   */
  static double detectableGain(PairedRatio r) {
    if (r == null) {
      return 0;
    }
    // DetectableEffect takes one run's spread: a pair's log ratio has twice its variance. The
    // combined spread is the estimate of it; the widening to the pairs' own spread is the rule's,
    // and DetectableEffect states the power of that rule.
    return DetectableEffect.DEFAULT.smallestGain(
        r.combinedLogSd() / Math.sqrt(2), r.pairs(), r.degreesOfFreedom());
  }

  private static Summary.Ratio ratio(PairedRatio r) {
    return r == null ? null : new Summary.Ratio(r.estimate(), r.low(), r.high(), r.pairs());
  }

  /** The paired ratio B/A of the pairs on {@code objective} ({@link ValidationStats#paired}). */
  private PairedRatio paired(List<double[]> pairs, Goal objective) {
    return ValidationNoise.ratio(pairs, trials, objective);
  }

  /**
   * "; unstable: ..." when the candidate's runs disagree beyond the session's noise (an F test at
   * 1%): such a configuration is judged by its worst run, which the verdict names.
   */
  private String instability(List<TrialResult> candidates) {
    double[] runs = candidates.stream().mapToDouble(t -> Objectives.value(t, Goal.TPS)).toArray();
    RunNoise noise = new SessionMeasurements(trials, Goal.TPS).noise();
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
   * Marks each row whose WAL does not fit the disk limit of the session's safety rules. Only a
   * configuration measured as given can break it, PGTune-style above all: its max_wal_size is 8GB
   * on any disk, and the session's own proposals were held to the limit.
   */
  private List<Summary.ResultRow> withDiskWarnings(List<Summary.ResultRow> rows) {
    SafetyContext safety = context.safety(context.space());
    List<Summary.ResultRow> out = new ArrayList<>();
    for (Summary.ResultRow r : rows) {
      out.add(context.rules().walRisk(r.settings(), safety).map(r::withDiskWarning).orElse(r));
    }
    return out;
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
            r.withVerdict(
                r.verdict()
                    + belowPgTuneNote(r.tpsRatio().estimate(), pgtune.tpsRatio().estimate()));
      }
      out.add(r);
    }
    return out;
  }

  /**
   * "; measured below PGTune-style (1.19x against 1.20x TPS)", with a third decimal when two do not
   * show the difference: a session printed "(1.14x against 1.14x TPS)", which reads as no
   * difference at all.
   */
  static String belowPgTuneNote(double ratio, double pgtuneRatio) {
    boolean sameAtTwo =
        String.format(java.util.Locale.ROOT, "%.2f", ratio)
            .equals(String.format(java.util.Locale.ROOT, "%.2f", pgtuneRatio));
    String x = sameAtTwo ? "%.3fx" : "%.2fx";
    return String.format(
        java.util.Locale.ROOT,
        "; measured below PGTune-style (" + x + " against " + x + " TPS)",
        ratio,
        pgtuneRatio);
  }

  /**
   * The settings of an unvalidated pick's search best as a validated pick's would be written
   * ({@link StepProposer#asWritten}): a validated row's search settings are those, so this finds
   * its twin.
   */
  private Map<String, String> asWritten(
      String name,
      Optional<Configuration> searchBest,
      StepProposer proposer,
      List<TrialResult> search) {
    SearchSpace space = context.trackSpace(ResultKey.parse(name).track());
    return searchBest
        .map(best -> StepProposer.withoutDefaults(proposer.asWritten(best, space, search), space))
        .map(c -> ServerChanges.only(c.rendered(space), context.serverSettings()))
        .orElse(Map.of());
  }

  /** What {@code c}, a configuration of pick {@code name}'s track, changes on the server. */
  private Map<String, String> changes(String name, Configuration c) {
    SearchSpace space = context.trackSpace(ResultKey.parse(name).track());
    return ServerChanges.only(
        StepProposer.withoutDefaults(c, space).rendered(space), context.serverSettings());
  }

  /**
   * A pick the plan did not validate, once the search is over: the pick as validation would have
   * measured it ({@link StepProposer#pick}: its values as a DBA writes them, without the settings
   * the evidence does not support), so that its row and its export hold what a validated pick's
   * would. Why: an A/A noise-bench session exported its reload/latency search best, 13 settings of
   * which its model supported none, as `best-reload-latency.conf`, while the same pick validated
   * would have been "no change found"; the stand-ins ({@link ValidationStandIns}) had judged it so.
   * Its runs are the search's trials of that configuration, often none when settings were left at
   * their defaults.
   */
  private Summary.ResultRow unvalidatedPickRow(
      String name, PickSimplifier.Result pick, List<TrialResult> search) {
    Map<String, String> settings = changes(name, pick.simplified());
    Summary.ResultRow row;
    if (settings.isEmpty()) {
      row =
          noChange(
              name,
              pick.changed()
                  ? "the search's best holds no setting the evidence supports"
                  : "the search's best is the server's defaults");
    } else {
      row =
          row(
              name,
              searchRuns(name, pick.simplified(), search),
              settings,
              null,
              null,
              "not validated against the baseline (" + whyNotValidated() + "); best of the search");
    }
    return pick.changed() ? row.withSimplified(simplified(pick)) : row;
  }

  /** The model's best configuration of a track for an objective over every trial, if any ran. */
  private Optional<Configuration> searchBest(String name) {
    ResultKey key = ResultKey.parse(name);
    SearchSpace space = context.trackSpace(key.track());
    OptimizerSpec spec =
        new OptimizerSpec(space, Objectives.of(key.objective()), inputs.seed(), c -> true, true);
    return ModelReplay.fitted(spec, inputs.surrogate(), trials)
        .incumbent()
        .map(i -> i.configuration());
  }

  private Summary.ResultRow unvalidatedRow(String name, Optional<Configuration> best) {
    SearchSpace space = context.trackSpace(ResultKey.parse(name).track());
    if (best.isEmpty()) {
      return row(name, List.of(), Map.of(), null, null, "no successful trial in this track");
    }
    if (ServerChanges.only(best.get().rendered(space), context.serverSettings()).isEmpty()) {
      // The defaults' runs are the baseline's, not this pick's: the table shows none for it, as for
      // a validated pick that changes nothing.
      return noChange(name, "the search's best is the server's defaults");
    }
    return row(
        name,
        searchRuns(name, best.get(), trials),
        best.get().rendered(space),
        null,
        null,
        "not validated against the baseline (" + whyNotValidated() + "); best of the search");
  }

  /**
   * The search's successful trials among {@code from} that ran {@code c}, a configuration of pick
   * {@code name}'s track: the same settings changed, whatever a trial wrote at its default.
   */
  private List<TrialResult> searchRuns(String name, Configuration c, List<TrialResult> from) {
    SearchSpace space = context.trackSpace(ResultKey.parse(name).track());
    Configuration changed = StepProposer.withoutDefaults(c, space);
    List<TrialResult> runs = new ArrayList<>();
    for (TrialResult t : ok(from)) {
      if (!isValidation(t)
          && space.names().containsAll(t.config().keySet())
          && StepProposer.withoutDefaults(Configuration.normalized(t.config(), space), space)
              .equals(changed)) {
        runs.add(t);
      }
    }
    return runs;
  }

  /**
   * Why a pick of the search was not validated: the plan, made for the budget, left it out. A
   * session whose validation stops early, once its ratios are decided, ends with time left, so "the
   * budget left no room" alone read as false there: the plan's list says what it measured.
   */
  private String whyNotValidated() {
    List<String> validated =
        plan.validations().stream()
            .map(v -> "pgtune".equals(v.name()) ? "PGTune-style" : v.name())
            .toList();
    if (validated.isEmpty()) {
      return "the budget left no room";
    }
    String listed =
        validated.size() == 1
            ? validated.get(0)
            : String.join(", ", validated.subList(0, validated.size() - 1))
                + " and "
                + validated.get(validated.size() - 1);
    return "the budget's plan validates " + listed + " only";
  }

  /** Per validation round, the round's baseline run (A) and this candidate's run (B). */
  private List<TrialResult[]> pairsOf(String name) {
    return ValidationRounds.runsByRound(SessionPlan.BASELINE, name, trials);
  }

  private static boolean isLatency(String name) {
    return ResultKey.parse(name).objective() == Goal.LATENCY;
  }

  /**
   * A latency pick of a workload that reports no latency: no figure to pick by, so no settings, no
   * runs and no export (its picks came out as the defaults, every trial's 0 ms alike).
   */
  private Summary.ResultRow notReported(String name) {
    return row(name, List.of(), Map.of(), null, null, Objectives.NOT_REPORTED);
  }

  /**
   * "no change found: {@code why}": a pick that changes nothing, with no runs of its own (the
   * defaults' are the baseline's), no ratio and no export.
   */
  private Summary.ResultRow noChange(String name, String why) {
    return row(name, List.of(), Map.of(), null, null, "no change found: " + why);
  }

  private Summary.ResultRow row(
      String name,
      List<TrialResult> runs,
      Map<String, String> settings,
      Summary.Ratio tpsRatio,
      Summary.Ratio latencyRatio,
      String verdict) {
    Optional<ResultKey> key = ResultKey.of(name);
    Track track = key.map(ResultKey::track).orElse(null);
    Goal objective = key.map(ResultKey::objective).orElse(null);
    return new Summary.ResultRow(
        name,
        track,
        objective,
        ServerChanges.only(settings, context.serverSettings()), // "changed N" counts real changes
        mean(runs, t -> Objectives.value(t, Goal.TPS)),
        meanNopm(runs),
        mean(runs, t -> t.workload().overall().avgMs()),
        mean(runs, t -> t.workload().overall().p95Ms()),
        tpsRatio,
        latencyRatio,
        runs.stream().map(TrialResult::trial).toList(),
        verdict,
        null,
        0,
        mean(runs, t -> t.workload().tps()),
        null);
  }

  private List<TrialResult> phase(Phase phase) {
    return trials.stream().filter(t -> t.phase() == phase).toList();
  }

  private static List<TrialResult> ok(List<TrialResult> list) {
    return list.stream().filter(TrialResult::isOk).toList();
  }

  private static boolean isValidation(TrialResult t) {
    return t.phase() == Phase.VALIDATION;
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

  /** Mean NOPM of the runs that measured one; null when none did (pgbench's scripts). */
  private static Double meanNopm(List<TrialResult> runs) {
    OptionalDouble m =
        runs.stream()
            .flatMap(t -> t.workload().tpccFigures().stream())
            .mapToDouble(TpccFigures::nopm)
            .average();
    return m.isPresent() ? m.getAsDouble() : null;
  }

  private static double mean(List<TrialResult> runs, ToDoubleFunction<TrialResult> f) {
    return runs.isEmpty() ? 0 : runs.stream().mapToDouble(f).average().orElse(0);
  }
}
