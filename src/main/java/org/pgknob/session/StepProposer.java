package org.pgknob.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.pgknob.PgknobException;
import org.pgknob.measure.RunNoise;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.Incumbent;
import org.pgknob.optimize.KnobSensitivity;
import org.pgknob.optimize.NoCandidateLeftException;
import org.pgknob.optimize.Objective;
import org.pgknob.optimize.Optimizer;
import org.pgknob.optimize.OptimizerSpec;
import org.pgknob.optimize.Optimizers;
import org.pgknob.optimize.Sweep;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.runs.Goal;
import org.pgknob.runs.ResultKey;
import org.pgknob.runs.Track;
import org.pgknob.safety.Verdict;
import org.pgknob.server.SettingValue;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialRequest;
import org.pgknob.trial.TrialResult;

/**
 * Turns a step of the plan into the configuration its trial runs, from the plan and the trials
 * logged so far only, so that a resumed session proposes exactly what the uninterrupted one would
 * have:
 *
 * <ul>
 *   <li>baseline, and the A side of a validation pair: the defaults;
 *   <li>sweep: the {@link Sweep} optimizer's next point over the plan's sweeps (the one knob at the
 *       plan's value);
 *   <li>Bayesian iteration t: a fresh optimizer seeded with (session seed, t) that has observed
 *       every earlier trial within the track's space, and whose anchors ({@link BayesAnchors}: the
 *       best sweep values, the PGTune-style configuration) it tries first;
 *   <li>the B side of a validation: the PGTune-style configuration, or the best configuration of a
 *       track for an objective (its last race winner, else the model's best posterior mean over the
 *       search phases) without the settings the evidence does not support ({@link #pick}).
 * </ul>
 *
 * Every proposal passes the safety rules first; a refused one becomes a REJECTED trial.
 */
final class StepProposer {
  private final SessionContext context;
  private final SessionInputs inputs;
  private final SessionPlan plan;
  private final Map<String, PickSimplifier.Result> picks;
  private final Map<String, SearchSpace> bayesSpaces = new HashMap<>();
  private final Map<Track, List<Configuration>> bayesAnchors = new HashMap<>();

  StepProposer(SessionContext context, SessionInputs inputs, SessionPlan plan) {
    this(context, inputs, plan, new HashMap<>());
  }

  private StepProposer(
      SessionContext context,
      SessionInputs inputs,
      SessionPlan plan,
      Map<String, PickSimplifier.Result> picks) {
    this.context = context;
    this.inputs = inputs;
    this.plan = plan;
    this.picks = picks;
  }

  /**
   * A proposer for {@code sameSearch}, this plan with validation changed when the search was over
   * (picks added by {@link ValidationStandIns}, rounds re-counted by {@link ValidationTime}), that
   * keeps the picks worked out so far: the search is the same, and so is each pick.
   */
  StepProposer forPlan(SessionPlan sameSearch) {
    return new StepProposer(context, inputs, sameSearch, picks);
  }

  TrialRequest request(Step step, List<TrialResult> logged) {
    if (step.runsDefaults()) {
      return new TrialRequest(
          step.trial(), step.phase(), step.track(), step.label(), Map.of(), Map.of(), null, null);
    }
    return switch (step.phase()) {
      case SWEEP -> {
        SearchSpace space = context.space();
        yield checked(
            step, space, sweepPoint(plan, space, Objectives.of(inputs.objective()), step, logged));
      }
      case BAYES -> {
        SearchSpace space = bayesSpace(step, logged);
        yield checked(step, space, suggest(step, space, logged));
      }
      case VALIDATION -> validationCandidate(step, logged);
      case RACE -> repeat(step, step.race().sourceTrial(), logged);
      case REFERENCE -> repeat(step, step.incumbentTrial(), logged);
      default -> throw new IllegalStateException("no proposal for " + step);
    };
  }

  /**
   * The sweep trial's configuration: the {@link Sweep} optimizer over the plan's sweeps, asked
   * again from the start once for its baseline (the plan's baseline runs measured it), once for
   * every sweep trial logged, then once for this step. A sweep's points depend on nothing it
   * observed (nor on the objective), so this replay is all a resumed session needs. Its known
   * constraint accepts every point: one the safety rules refuse still takes its slot (logged
   * REJECTED by {@link #checked}), so the trial numbers keep following the plan.
   */
  static Configuration sweepPoint(
      SessionPlan plan,
      SearchSpace space,
      Objective objective,
      Step step,
      List<TrialResult> logged) {
    OptimizerSpec spec = new OptimizerSpec(space, objective, 0, c -> true, false);
    Sweep sweep = new Sweep(spec, plan.sweepPlan());
    Configuration baseline = sweep.suggest();
    long done = logged.stream().filter(t -> t.phase() == Phase.SWEEP).count();
    for (long i = 0; i < done; i++) {
      sweep.suggest();
    }
    Configuration point = Configuration.normalized(sweep.suggest().values(), space);
    Configuration planned = Configuration.normalized(Map.of(step.subject(), step.value()), space);
    if (!baseline.isEmpty() || !point.equals(planned)) {
      throw new IllegalStateException(
          "the sweep proposes " + point + " where the plan's step " + step + " has " + planned);
    }
    return point;
  }

  /** A race run: the configuration of an earlier trial again, as it ran then. */
  private static TrialRequest repeat(Step step, int sourceTrial, List<TrialResult> logged) {
    TrialResult source =
        logged.stream()
            .filter(t -> t.trial() == sourceTrial)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no trial " + sourceTrial + " to race"));
    return new TrialRequest(
        step.trial(),
        step.phase(),
        step.track(),
        step.label(),
        source.config(),
        source.settings(),
        source.predictedMemoryBytes(),
        null);
  }

  /**
   * The knobs this track's Bayesian phase searches: chosen from the sweeps' results, grown every
   * {@link BayesKnobs#GROW_EVERY} of the track's Bayesian trials when a model finds new effects,
   * and every knob of the track the PGTune-style configuration sets, so that the track's
   * PGTune-style anchor is the configuration a DBA would try, not a part of it.
   */
  SearchSpace bayesSpace(Step step, List<TrialResult> logged) {
    long own =
        logged.stream().filter(t -> t.phase() == Phase.BAYES && step.track() == t.track()).count();
    return bayesSpaces.computeIfAbsent(
        step.track() + "/" + own / BayesKnobs.GROW_EVERY,
        key ->
            BayesKnobs.searched(
                context,
                step.track(),
                step.count(),
                inputs.tracks().contains(Track.RELOAD),
                logged,
                inputs.objective()));
  }

  /**
   * What this track's Bayesian phase tries first (see {@link BayesAnchors}), fixed once from the
   * sweeps' results and the server's facts.
   */
  List<Configuration> anchors(Track track, SearchSpace space, List<TrialResult> logged) {
    return bayesAnchors.computeIfAbsent(
        track,
        t -> {
          SweepAnalysis sweeps = sweeps(inputs.objective(), logged, Double.NaN);
          return BayesAnchors.of(t, space, pgTune(), sweeps);
        });
  }

  /**
   * The PGTune-style configuration as validation runs it: whole when the session may restart the
   * server, else its settings a reload applies (a session of the reload track alone must not
   * restart the server, and the whole configuration would be refused in every round).
   */
  private Map<String, String> pgTuneToValidate() {
    Map<String, String> all = context.pgTune();
    if (inputs.tracks().contains(Track.RESTART)) {
      return all;
    }
    Map<String, String> out = new java.util.TreeMap<>();
    all.forEach(
        (k, v) -> {
          var setting = context.serverSettings().get(k);
          if (setting != null && !setting.needsRestart()) {
            out.put(k, v);
          }
        });
    return out;
  }

  /** The session's PGTune-style settings, or none when the server's facts cannot be read now. */
  private Map<String, String> pgTune() {
    try {
      return context.pgTune();
    } catch (PgknobException e) {
      return Map.of();
    }
  }

  private Configuration suggest(Step step, SearchSpace space, List<TrialResult> logged) {
    OptimizerSpec spec =
        spec(space, step.trial()).withAnchors(anchors(step.track(), space, logged));
    Optimizer bayes = ModelReplay.fitted(spec, inputs.surrogate(), logged);
    try {
      return bayes.suggest();
    } catch (NoCandidateLeftException e) {
      // Every candidate the model would try was refused or seen: fall back to a random point.
      Optimizer random = Optimizers.random(spec.withRepeatsAllowed(true));
      return random.suggest();
    }
  }

  private OptimizerSpec spec(SearchSpace space, int trial) {
    return new OptimizerSpec(
        space,
        Objectives.of(inputs.objective()),
        inputs.seed() * 1_000_003L + trial,
        context.rules().asPredicate(context.safety(space)),
        false);
  }

  /**
   * The validated picks (not PGTune-style, not given settings) left out of validation, fixed from
   * the trials before it: a pick whose best configuration changes nothing on the server (measuring
   * it against the defaults would compare the defaults with themselves), and a pick whose settings
   * are those of an earlier pick in the plan's order (its twin's runs stand for it: {@link
   * #twins}).
   */
  Set<String> sameAsDefaults(List<TrialResult> search) {
    return sameAsDefaults(plan.validations(), search);
  }

  /** {@link #sameAsDefaults(List)} among {@code validations}, in their order. */
  Set<String> sameAsDefaults(List<SessionPlan.Validation> validations, List<TrialResult> search) {
    Set<String> out = new TreeSet<>(twins(validations, search).keySet());
    for (SessionPlan.Validation v : validations) {
      if (isPick(v) && settingsOf(v, search).isEmpty()) {
        out.add(v.name());
      }
    }
    return out;
  }

  /**
   * Each pick whose settings are those of PGTune-style (when it is validated) or of an earlier
   * measured pick, with that configuration's name: the restart track's best is often a
   * configuration the reload track found, or PGTune-style itself (the informed initial design
   * proposes it first), and one run per round is enough. Values are compared as PostgreSQL reads
   * them: the pick's 6144MB is PGTune-style's 6GB. A default session validated PGTune-style and its
   * identical restart pick side by side, a third of its runs, and compared them.
   */
  Map<String, String> twins(List<TrialResult> search) {
    return twins(plan.validations(), search);
  }

  private Map<String, String> twins(
      List<SessionPlan.Validation> validations, List<TrialResult> search) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    List<Map.Entry<Map<String, String>, String>> measured = new ArrayList<>();
    if (validations.stream()
        .anyMatch(v -> AgainstPgTune.PGTUNE.equals(v.name()) && v.settings().isEmpty())) {
      Map<String, String> pgtune = pgTuneChanges();
      if (!pgtune.isEmpty()) {
        measured.add(
            Map.entry(pgtune, AgainstPgTune.PGTUNE)); // always measured: users compare against it
      }
    }
    for (SessionPlan.Validation v : validations) {
      if (!isPick(v)) {
        continue;
      }
      Map<String, String> settings = settingsOf(v, search);
      if (settings.isEmpty()) {
        continue;
      }
      Optional<String> twin =
          measured.stream()
              .filter(m -> sameConfiguration(m.getKey(), settings))
              .map(Map.Entry::getValue)
              .findFirst();
      if (twin.isPresent()) {
        out.put(v.name(), twin.get());
      } else {
        measured.add(Map.entry(settings, v.name()));
      }
    }
    return out;
  }

  /** PGTune-style's settings that change something, as validation runs them; none if unknown. */
  private Map<String, String> pgTuneChanges() {
    try {
      return ServerChanges.only(pgTuneToValidate(), context.serverSettings());
    } catch (PgknobException e) {
      return Map.of();
    }
  }

  /** Whether two sets of settings are one configuration, their values read as PostgreSQL does. */
  static boolean sameConfiguration(Map<String, String> a, Map<String, String> b) {
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    return a.entrySet().stream().allMatch(e -> SettingValue.same(e.getValue(), b.get(e.getKey())));
  }

  private static boolean isPick(SessionPlan.Validation v) {
    return v.settings().isEmpty() && !AgainstPgTune.PGTUNE.equals(v.name());
  }

  /** The settings a pick would run with that change something on the server. */
  private Map<String, String> settingsOf(SessionPlan.Validation v, List<TrialResult> search) {
    SearchSpace space = context.trackSpace(v.track());
    Configuration c = withoutDefaults(pick(v.name(), search).simplified(), space);
    return ServerChanges.only(c.rendered(space), context.serverSettings());
  }

  private TrialRequest validationCandidate(Step step, List<TrialResult> logged) {
    Map<String, String> given =
        plan.validation(step.subject()).map(SessionPlan.Validation::settings).orElse(Map.of());
    if (!given.isEmpty() || AgainstPgTune.PGTUNE.equals(step.subject())) {
      // A comparison measures the configurations it was given as they are; the guardrail still
      // stops a trial that eats the machine.
      Map<String, String> settings = given.isEmpty() ? pgTuneToValidate() : given;
      return new TrialRequest(
          step.trial(), step.phase(), step.track(), step.label(), Map.of(), settings, null, null);
    }
    SearchSpace space = context.trackSpace(step.track());
    // Every round measures what the first measured: a session resumed by another pgknob version,
    // or on another machine whose arithmetic fits the model a little differently, could otherwise
    // work out a slightly different pick and pool two configurations under one name.
    for (TrialResult t : logged) {
      if (ValidationDrops.round(t) > 0
          && ValidationDrops.subject(t).equals(step.subject())
          && space.names().containsAll(t.config().keySet())) {
        return checked(step, space, Configuration.normalized(t.config(), space));
      }
    }
    return checked(step, space, pick(step.subject(), logged).simplified());
  }

  /**
   * The pick {@code name} ("restart/tps") as validation measures it: the track's {@link #best}, its
   * values as a DBA writes them ({@link #asWritten}), with the settings the evidence does not
   * support left at their defaults ({@link PickSimplifier}). Computed once, from the trials before
   * validation only, so that every round, the results and a resumed session see the same
   * configuration.
   */
  PickSimplifier.Result pick(String name, List<TrialResult> logged) {
    List<TrialResult> search = logged.subList(0, Math.min(logged.size(), plan.searchTrials()));
    return picks.computeIfAbsent(name, n -> simplified(n, search));
  }

  /** Every validated pick of the plan (not PGTune-style, not given settings), in its order. */
  Map<String, PickSimplifier.Result> picks(List<TrialResult> logged) {
    Map<String, PickSimplifier.Result> out = new java.util.LinkedHashMap<>();
    for (SessionPlan.Validation v : plan.validations()) {
      if (isPick(v)) {
        out.put(v.name(), pick(v.name(), logged));
      }
    }
    return out;
  }

  /** The one-at-a-time sweeps' effects on {@code objective}, judged against {@code noiseCv}. */
  private SweepAnalysis sweeps(Goal objective, List<TrialResult> logged, double noiseCv) {
    SearchSpace all = context.space();
    return SweepAnalysis.of(
        all,
        Objectives.of(objective),
        Objectives.within(all, logged, r -> r.phase().isOneAtATime()),
        noiseCv);
  }

  /**
   * {@link PickSimplifier} on the track's best, with the track's model fitted as {@link #best} fits
   * it, the knobs whose sweep's best led the defaults beyond the session's run noise kept ({@link
   * KnobSensitivity#bestLeadsBeyondNoise}), the safety rules as {@link #checked} applies them, and
   * the margin from the smallest gain the session's validation can detect (as the console states it
   * after the baselines).
   */
  private PickSimplifier.Result simplified(String name, List<TrialResult> search) {
    ResultKey key = ResultKey.parse(name);
    SearchSpace space = context.trackSpace(key.track());
    Configuration pick = asWritten(best(name, search), space, search);
    OptimizerSpec spec =
        new OptimizerSpec(space, Objectives.of(key.objective()), inputs.seed(), c -> true, true);
    Bayes model = ModelReplay.fittedForChanges(spec, inputs.surrogate(), search);
    SessionMeasurements measured = new SessionMeasurements(search, key.objective());
    RunNoise noise = measured.noise();
    SweepAnalysis sweeps = sweeps(key.objective(), search, noise.known() ? noise.cv() : Double.NaN);
    Set<String> swept = new TreeSet<>();
    for (KnobSensitivity s : sweeps.ranking()) {
      // the anchors' bar, not the effect's: a noise-bench pick lost its shared_buffers=2075MB (and
      // all of its gain) to a model that had smoothed away a +24% sweep, 2.7 x the pooled noise
      if (s.bestLeadsBeyondNoise()) {
        swept.add(s.knob());
      }
    }
    // the rounds the plan made, not those the time left re-counted when validation started: a
    // resumed session, and the results, read the re-counted plan and must find the same pick
    double detectable =
        MeasurementReport.smallestGain(
            measured, inputs.windowSeconds(), ValidationTime.plannedRounds(plan));
    return new PickSimplifier(
            space,
            model::change,
            swept,
            c -> context.rules().check(c, context.safety(space)).accepted(),
            PickSimplifier.margin(detectable))
        .simplify(pick);
  }

  /**
   * {@code best} with its values as a DBA writes them ({@link PickRounding}), shared_buffers and
   * wal_buffers rounding up only within what its search trials' predicted memory leaves under the
   * limit: the pick that validation measures, and that the exports then write as they are.
   */
  Configuration asWritten(Configuration best, SearchSpace space, List<TrialResult> search) {
    List<Integer> measuredAt =
        search.stream()
            .filter(
                t ->
                    space.names().containsAll(t.config().keySet())
                        && Configuration.normalized(t.config(), space).equals(best))
            .map(TrialResult::trial)
            .toList();
    return PickRounding.round(
        best,
        space,
        ExportRounding.forRow(measuredAt, search, context.machine(), null),
        c -> context.rules().check(c, context.safety(space)).accepted());
  }

  /**
   * The best configuration of a track for an objective ("restart/tps") over the search phases: the
   * winner of the track's last race on that objective (paired evidence), else the model's best
   * posterior mean over the drift-corrected values (never one lucky window on its own).
   */
  Configuration best(String name, List<TrialResult> logged) {
    ResultKey key = ResultKey.parse(name);
    SearchSpace space = context.trackSpace(key.track());
    if (plan.racing() != null && plan.racing().objective() == key.objective()) {
      var incumbent = new MeasuredSlots(plan).incumbent(key.track(), logged);
      for (TrialResult t : logged) {
        if (incumbent.isPresent()
            && t.trial() == incumbent.get()
            && space.names().containsAll(t.config().keySet())) {
          return Configuration.normalized(t.config(), space);
        }
      }
    }
    OptimizerSpec spec =
        new OptimizerSpec(space, Objectives.of(key.objective()), inputs.seed(), c -> true, true);
    return ModelReplay.fitted(spec, inputs.surrogate(), logged)
        .incumbent()
        .map(Incumbent::configuration)
        .orElse(Configuration.empty());
  }

  private TrialRequest checked(Step step, SearchSpace space, Configuration proposed) {
    Configuration c = withoutDefaults(proposed, space);
    Verdict verdict = context.rules().check(c, context.safety(space));
    return new TrialRequest(
        step.trial(),
        step.phase(),
        step.track(),
        step.label(),
        c.values(),
        c.rendered(space),
        verdict.predictedBytes(),
        verdict.accepted() ? null : verdict.reason());
  }

  /**
   * The configuration without the knobs it sets to their default: the same server state, written
   * the way people read it (only what changes), and no ALTER SYSTEM for a value already in force.
   */
  static Configuration withoutDefaults(Configuration c, SearchSpace space) {
    Configuration out = c;
    for (var e : c.values().entrySet()) {
      // Only a default inside the knob's range counts: a clamped one (wal_buffers = -1) differs.
      Object def = space.knob(e.getKey()).defaultValue();
      if (space.knob(e.getKey()).admits(def) && def.equals(e.getValue())) {
        out = out.without(e.getKey());
      }
    }
    return out;
  }

  private static boolean isValidation(TrialResult t) {
    return t.phase() == Phase.VALIDATION;
  }
}
