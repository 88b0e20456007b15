package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.pgknob.optimize.acquisition.Acquisition;
import org.pgknob.optimize.acquisition.AcquisitionMaximizer;
import org.pgknob.optimize.acquisition.FeasibilityModel;
import org.pgknob.optimize.acquisition.LogExpectedImprovement;
import org.pgknob.optimize.acquisition.TrustRegion;
import org.pgknob.optimize.model.CategoricalBlock;
import org.pgknob.optimize.model.GpFitter;
import org.pgknob.optimize.model.Prediction;
import org.pgknob.optimize.model.Surrogate;
import org.pgknob.optimize.model.SurrogateFitter;
import org.pgknob.space.Configuration;
import org.pgknob.space.UnitCubeEncoder;

/**
 * Bayesian optimization: a surrogate of the objective (a Gaussian process, or a random forest), log
 * expected improvement times the probability of running at all, maximized over the mixed space.
 *
 * <p>Each {@link #suggest()} reads top to bottom: the spec's anchors not yet observed, in order;
 * while fewer than {@link #initialPoints()} observations have a value, the next point of the
 * initial design (around the anchors if there are any, else a scrambled Sobol design over the
 * space; see {@link InitialDesign}); then fit the surrogate to the successful observations (on the
 * log scale when that explains them better, see {@link TargetScale}; standardized, the worse half
 * compressed; see {@link TargetTransform}), fit the feasibility model to successes and failures
 * (failures never enter the objective model as invented values), and maximize {@code log EI + log
 * P(feasible)} over admissible candidates. EI improves on the best posterior mean among observed
 * configurations, which is also the {@link #incumbent()}: with noisy trials the luckiest run is not
 * the best configuration.
 *
 * <p>Noise: an observation whose outcome carries a standard error enters the model with that
 * variance (on the model's scale, see {@link TargetTransform#forwardVariance}) added to the fitted
 * common noise; observations without one have the common noise alone. Replicates of a configuration
 * are separate observations, so its posterior tightens as they accumulate. EI is the noisy form of
 * Letham et al. 2019 in its plug-in version (as BoTorch's analytic "noisy EI" approximation): the
 * best posterior mean at observed points is the value to beat, and a candidate's spread is the
 * latent function's (noise-free) posterior variance, so a lucky outlier with a large standard error
 * neither becomes the incumbent nor draws the search to itself.
 *
 * <p>With a screening policy that applies to the space ({@code initial=screen}), the screening's
 * points replace the initial design, and the model is fitted on the knobs it found active alone,
 * the acquisition searched with every other knob held at the incumbent's value (see {@link
 * Screening} and {@link ActiveSubspace}).
 */
public final class Bayes implements Optimizer {
  private final OptimizerSpec spec;
  private final SurrogateFitter fitter;
  // the hedge's second model and the hedge (both null without one)
  private final SurrogateFitter alternative;
  private final ModelHedge hedge;
  private final AcquisitionMaximizer.Settings settings;
  private final UnitCubeEncoder encoder;
  private final List<CategoricalBlock> categorical;
  private final History history;
  private final CandidateCheck check;
  private final InitialDesign design;
  private final AcquisitionMaximizer maximizer;
  private final AcquisitionMaximizer largeHistoryMaximizer;
  private final int initialCap;
  private final Screening screening;
  private final Screening.Policy screenPolicy;
  private int suggestions;
  private Fitted fitted;
  private Screening.State screened;
  private int screenedAt = -1;

  public Bayes(OptimizerSpec spec, SurrogateFitter fitter) {
    this(spec, fitter, AcquisitionMaximizer.Settings.defaults());
  }

  public Bayes(OptimizerSpec spec, SurrogateFitter fitter, AcquisitionMaximizer.Settings settings) {
    this(spec, fitter, settings, INITIAL_CAP);
  }

  /**
   * As {@link #Bayes(OptimizerSpec, SurrogateFitter, AcquisitionMaximizer.Settings)}, with at most
   * {@code initialCap} initial design points.
   */
  public Bayes(
      OptimizerSpec spec,
      SurrogateFitter fitter,
      AcquisitionMaximizer.Settings settings,
      int initialCap) {
    this(spec, fitter, settings, initialCap, Screening.Policy.NONE);
  }

  /**
   * As {@link #Bayes(OptimizerSpec, SurrogateFitter, AcquisitionMaximizer.Settings, int)}, with a
   * screening design instead of the initial design where {@code screen} applies to the space (see
   * {@link Screening}).
   */
  Bayes(
      OptimizerSpec spec,
      SurrogateFitter fitter,
      AcquisitionMaximizer.Settings settings,
      int initialCap,
      Screening.Policy screen) {
    this(spec, fitter, null, settings, initialCap, screen);
  }

  /**
   * As {@link #Bayes(OptimizerSpec, SurrogateFitter, AcquisitionMaximizer.Settings, int,
   * Screening.Policy)}; with an {@code alternative} fitter (null for none), on a space of numeric
   * knobs alone, each suggestion is taken from one of the two models by a {@link ModelHedge}. Not
   * on spaces with categorical knobs: the alternative {@code portfolio=hedge} offers, the product
   * kernel alone, lost the benchmark's mixed spaces by far (bench/optimizer-rounds.md, round 18).
   */
  Bayes(
      OptimizerSpec spec,
      SurrogateFitter fitter,
      SurrogateFitter alternative,
      AcquisitionMaximizer.Settings settings,
      int initialCap,
      Screening.Policy screen) {
    this.initialCap = initialCap;
    this.spec = spec;
    this.fitter = fitter;
    this.settings = settings;
    this.encoder = new UnitCubeEncoder(spec.space());
    this.categorical =
        encoder.segments().stream()
            .filter(s -> !s.knob().isNumeric())
            .map(s -> new CategoricalBlock(s.offset(), s.width()))
            .toList();
    this.history = new History(spec.space());
    this.check = new CandidateCheck(spec, history);
    this.design = new InitialDesign(encoder, spec.anchors(), spec.seed());
    this.screenPolicy = screen;
    this.screening =
        screen.appliesTo(spec.space().size())
            ? new Screening(encoder, spec.objective(), design.anchors(), spec.seed())
            : null;
    this.maximizer = new AcquisitionMaximizer(encoder, check::accepts, settings);
    this.largeHistoryMaximizer =
        new AcquisitionMaximizer(encoder, check::accepts, settings.halved());
    boolean hedged = alternative != null && categorical.isEmpty();
    this.alternative = hedged ? alternative : null;
    this.hedge = hedged ? new ModelHedge(2, ModelHedge.ETA) : null;
  }

  /**
   * The most knobs a Bayes optimizer is built for. The optimizer benchmark times suggestions at 20
   * and 40 knobs (the 40-knob median was 1.6 times the 20-knob one at 200 observations): the cost
   * grows with the knobs, and 60 is half again the largest size measured, not a proven bound;
   * beyond it, a few dozen trials cannot tell the model which of so many knobs matter either.
   * {@link Optimizers} refuses a larger space before the first trial.
   */
  public static final int MAX_KNOBS = 60;

  /** A Bayes optimizer with the Gaussian-process surrogate. */
  public static Bayes withGaussianProcess(OptimizerSpec spec) {
    return new Bayes(spec, new GpFitter());
  }

  /**
   * Observations with a value needed before the model is trusted: half the knobs plus 2, at most
   * {@link #INITIAL_CAP}.
   */
  public int initialPoints() {
    return Math.max(3, Math.min(initialCap, (spec.space().size() + 1) / 2 + 2));
  }

  /** The most initial design points by default. */
  public static final int INITIAL_CAP = 1000;

  @Override
  public Configuration suggest() {
    Random random = new Random(spec.seed() * 1_000_003L + suggestions++);
    Optional<Configuration> anchor = design.nextAnchor(history, check);
    if (anchor.isPresent()) {
      return anchor.get();
    }
    Optional<Configuration> screen = screeningStep();
    if (screen.isPresent()) {
      return screen.get();
    }
    Optional<Fitted> model = model();
    if (model.isPresent()) {
      Fitted m = model.get();
      Optional<Configuration> probe = probe(m);
      if (probe.isPresent()) {
        return probe.get();
      }
      Optional<AcquisitionMaximizer.Scored> found =
          hedge == null ? nominate(m, random) : hedged(m, random);
      if (found.isPresent()) {
        return found.get().configuration();
      }
    }
    return nextDesignPoint();
  }

  /**
   * The hedge's suggestion: the alternative model fitted to the same observations, both models'
   * last nominations credited with the main model's posterior mean (the model the incumbent and the
   * reports use), a nomination from each, and one of them chosen.
   */
  private Optional<AcquisitionMaximizer.Scored> hedged(Fitted main, Random random) {
    Fitted other = fit(history.withValue(spec.objective()), main.subspace(), alternative);
    hedge.reward(main.surrogate()::mean);
    List<Optional<AcquisitionMaximizer.Scored>> nominated =
        List.of(nominate(main, random), nominate(other, random));
    hedge.nominate(
        nominated.stream()
            .map(n -> n.map(AcquisitionMaximizer.Scored::point).orElse(null))
            .toArray(double[][]::new));
    if (nominated.stream().anyMatch(Optional::isEmpty)) {
      return nominated.get(0).or(() -> nominated.get(1));
    }
    return nominated.get(hedge.choose(random));
  }

  /** The point that maximizes {@code m}'s acquisition, if any candidate is admissible. */
  private Optional<AcquisitionMaximizer.Scored> nominate(Fitted m, Random random) {
    double best = m.bestMean();
    AcquisitionMaximizer search =
        m.points().length > LARGE_HISTORY ? largeHistoryMaximizer : maximizer;
    Acquisition acquisition =
        new Acquisition() {
          @Override
          public double value(double[] x) {
            return Bayes.acquisition(m, m.surrogate().predictEach(x), x, best);
          }

          @Override
          public double upperBound(double[] x) {
            return m.surrogate()
                .optimisticEach(x)
                .map(p -> Bayes.acquisition(m, p, x, best))
                .orElse(Double.POSITIVE_INFINITY);
          }
        };
    double[] relevance = relevance(m.surrogate(), m.subspace());
    return search.maximize(
        acquisition,
        m.anchors(settings.refined() + 2),
        random,
        relevance,
        m.subspace() == null
            ? trustRegionBox(m, relevance)
            : ActiveSubspace.intersect(
                m.subspace().hold(m.points()[m.bestIndex()]), trustRegionBox(m, relevance)));
  }

  /**
   * How many suggestions each model of the hedge gave (the main model first), or empty without a
   * hedge.
   */
  public Optional<int[]> hedgeChoices() {
    return Optional.ofNullable(hedge).map(ModelHedge::chosen);
  }

  /**
   * The box the acquisition is searched in, or null for the whole space: with a trust-region policy
   * that applies to this space, the region replayed from the values observed since the initial
   * design, around the incumbent, its sides in proportion to the knobs' length scales (1 /
   * relevance; categorical knobs are not boxed).
   */
  private TrustRegion.Box trustRegionBox(Fitted m, double[] relevance) {
    Optional<TrustRegion> region = trustRegion();
    if (region.isEmpty()) {
      return null;
    }
    List<UnitCubeEncoder.Segment> segments = encoder.segments();
    double[] lengthScales = new double[encoder.dimensions()];
    for (int i = 0; i < segments.size(); i++) {
      UnitCubeEncoder.Segment s = segments.get(i);
      if (s.width() == 1 && s.knob().isNumeric()) {
        lengthScales[s.offset()] = relevance == null ? 1 : 1 / relevance[i];
      }
    }
    return region.get().box(m.points()[m.bestIndex()], lengthScales);
  }

  /**
   * The trust region the search is in (see {@link TrustRegion}), replayed from the values observed
   * since the initial design; empty when this optimizer uses none or the model does not exist yet.
   */
  public Optional<TrustRegion> trustRegion() {
    int dims = encoder.dimensions();
    if (!settings.region().appliesTo(dims)) {
      return Optional.empty();
    }
    return model()
        .map(
            m ->
                TrustRegion.replay(
                    m.targets(), initialPoints(), settings.region().failuresToShrink(dims)));
  }

  /**
   * Past this many observations each prediction costs more than twice what it did at 60 (it is
   * linear and quadratic in them), and the acquisition is searched with half the random candidates
   * and half the refinement to keep a suggestion under a second at 200 observations and 20 knobs;
   * by then the search is mostly local, around the anchors, whose one-knob neighbours are all kept.
   */
  static final int LARGE_HISTORY = GpFitter.FULL_FIT_LIMIT;

  /**
   * A candidate the feasibility model gives less than this chance of running is a last resort.
   * Where the best settings lie at the edge of a failing region (more shared_buffers until the
   * server will not start), the objective model extrapolates the trend into the region, and EI x
   * P(feasible) alone would now and then trade a likely crash for a large predicted gain; a crash
   * costs the user's server a restart and the session a trial.
   */
  static final double LAST_RESORT_FEASIBILITY = 0.05;

  private static final double LAST_RESORT_PENALTY = 1e3;

  /**
   * log EI of the surrogate's predictions {@code each} (averaged over them when the surrogate is a
   * sample of models) plus log P(feasible) from the failures, at a canonical point; minus a large
   * constant where P(feasible) is below {@link #LAST_RESORT_FEASIBILITY}, so that such a point wins
   * only when every candidate is one. log EI grows with the predicted variance, so upper bounds of
   * the variances give an upper bound.
   */
  private static double acquisition(Fitted m, Prediction[] each, double[] x, double best) {
    double value = logMeanEi(each, best);
    if (m.feasibility() == null) {
      return value;
    }
    double logFeasible = m.feasibility().logProbability(x);
    double penalty = logFeasible < Math.log(LAST_RESORT_FEASIBILITY) ? LAST_RESORT_PENALTY : 0;
    return value + logFeasible - penalty;
  }

  /** log of the mean over {@code each} of the expected improvement, without underflow. */
  private static double logMeanEi(Prediction[] each, double best) {
    if (each.length == 1) {
      return LogExpectedImprovement.logEi(each[0].mean(), each[0].sd(), best);
    }
    double[] logs = new double[each.length];
    double largest = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < each.length; i++) {
      logs[i] = LogExpectedImprovement.logEi(each[i].mean(), each[i].sd(), best);
      largest = Math.max(largest, logs[i]);
    }
    double sum = 0;
    for (double l : logs) {
      sum += Math.exp(l - largest);
    }
    return largest + Math.log(sum / each.length);
  }

  /**
   * Each knob's relevance to the model, in the encoder's segment order, with a floor of a hundredth
   * of the largest, so that a knob the model thinks inert is still tried now and then; 0 for a knob
   * the {@code subspace} holds (null: none held).
   */
  private double[] relevance(Surrogate surrogate, ActiveSubspace subspace) {
    List<UnitCubeEncoder.Segment> segments = encoder.segments();
    double[] out = new double[segments.size()];
    double largest = 0;
    for (int i = 0; i < out.length; i++) {
      UnitCubeEncoder.Segment s = segments.get(i);
      out[i] = surrogate.relevance(s.offset(), s.width());
      largest = Math.max(largest, out[i]);
    }
    for (int i = 0; i < out.length; i++) {
      // a held knob is never moved: the box pins it anyway
      out[i] = subspace != null && !subspace.isActive(i) ? 0 : Math.max(out[i], largest / 100);
    }
    return largest > 0 ? out : null;
  }

  /** The anchors this optimizer tries first, as its space holds them. */
  public List<Configuration> anchors() {
    return design.anchors();
  }

  private Configuration nextDesignPoint() {
    for (int draw = 0; draw < RandomSearch.MAX_DRAWS; draw++) {
      Configuration c = encoder.decode(design.nextPoint());
      if (check.accepts(c)) {
        return c;
      }
    }
    throw new NoCandidateLeftException(name(), RandomSearch.MAX_DRAWS);
  }

  @Override
  public void observe(Configuration configuration, Outcome outcome) {
    history.add(configuration, outcome);
    fitted = null;
  }

  @Override
  public String name() {
    return "bayes-" + fitter.name();
  }

  public History history() {
    return history;
  }

  /**
   * The observed configuration with the best posterior mean (the model's estimate, noise averaged
   * out); before the model exists, the best observed mean.
   */
  public Optional<Incumbent> incumbent() {
    Optional<Fitted> model = model();
    if (model.isEmpty()) {
      return history.bestObserved(spec.objective());
    }
    Fitted m = model.get();
    int best = m.bestIndex();
    Configuration config = m.configurations().get(best);
    double[] stats = observedStats(config);
    return Optional.of(
        new Incumbent(
            config,
            m.transform().inverse(m.surrogate().mean(m.points()[best])),
            stats[0],
            (int) stats[1]));
  }

  /**
   * The model's posterior of the objective's change from {@code from} to {@code to} ({@link
   * PredictedChange}: an oriented log ratio and its sd); empty before the model exists, when the
   * objective's values are not all positive (no log ratio then), or where the model predicts a
   * value at or below 0.
   *
   * <p>The difference is taken on the model's scale with the two points' posterior covariance
   * ({@link org.pgknob.optimize.model.Surrogate#difference}), then brought to the log scale: its
   * mean through the target transform, its sd by the transform's slope over one sd either side of
   * {@code from} (the compression of the worse half makes the slope depend on where it is taken; on
   * the values' own scale, so does the log).
   */
  public Optional<PredictedChange> change(Configuration from, Configuration to) {
    Optional<Fitted> model = model();
    if (model.isEmpty() || !model.get().transform().positive()) {
      return Optional.empty();
    }
    Fitted m = model.get();
    Prediction d = m.surrogate().difference(canonical(to), canonical(from));
    double yFrom = m.surrogate().mean(canonical(from));
    TargetTransform t = m.transform();
    double gain = t.orientedLog(yFrom + d.mean()) - t.orientedLog(yFrom);
    double h = Math.max(d.sd(), 1e-6);
    double slope = (t.orientedLog(yFrom + h) - t.orientedLog(yFrom - h)) / (2 * h);
    if (Double.isNaN(gain) || Double.isNaN(slope)) {
      return Optional.empty();
    }
    return Optional.of(new PredictedChange(gain, slope * d.sd()));
  }

  private double[] observedStats(Configuration config) {
    Configuration key = History.effective(spec.space(), config);
    double sum = 0;
    int runs = 0;
    for (Observation o : history.withValue(spec.objective())) {
      if (History.effective(spec.space(), o.configuration()).equals(key)) {
        sum += o.outcome().value(spec.objective().metric()).getAsDouble();
        runs++;
      }
    }
    return new double[] {runs == 0 ? Double.NaN : sum / runs, runs};
  }

  /**
   * Each knob's share of the fitted model's sensitivity (inverse length scales for the Gaussian
   * process, impurity reduction for the forest), summing to 1, most important first; empty before
   * the model exists.
   */
  public Map<String, Double> knobImportance() {
    Optional<Fitted> model = model();
    if (model.isEmpty()) {
      return Map.of();
    }
    Map<String, Double> raw = new LinkedHashMap<>();
    double total = 0;
    for (UnitCubeEncoder.Segment s : encoder.segments()) {
      double r = model.get().surrogate().relevance(s.offset(), s.width());
      raw.put(s.knob().name(), r);
      total += r;
    }
    double sum = total;
    Map<String, Double> out = new LinkedHashMap<>();
    raw.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(e -> out.put(e.getKey(), sum > 0 ? e.getValue() / sum : 0));
    return out;
  }

  /**
   * Each knob's main effect on the model's posterior mean (first-order Sobol index and relative
   * range: see {@link MainEffects}), most important first; empty before the model exists.
   */
  public List<MainEffect> mainEffects() {
    Optional<Fitted> model = model();
    if (model.isEmpty()) {
      return List.of();
    }
    Fitted m = model.get();
    return MainEffects.of(
        encoder,
        m.surrogate()::mean,
        x -> encoder.encode(encoder.decode(x)),
        m.transform()::inverse,
        spec.seed());
  }

  /** The fitted models, refitted only when observations arrived. */
  private Optional<Fitted> model() {
    List<Observation> ok = history.withValue(spec.objective());
    ActiveSubspace subspace = null;
    if (screening != null) {
      Screening.State state = screeningState();
      if (!state.done() || ok.size() < MODEL_AFTER_SCREENING) {
        return Optional.empty();
      }
      subspace = screenPolicy.hold() ? new ActiveSubspace(encoder, state.active()) : null;
    } else if (ok.size() < initialPoints()) {
      return Optional.empty();
    }
    if (fitted == null) {
      fitted = fit(ok, subspace);
    }
    return Optional.of(fitted);
  }

  /**
   * Successful observations the model needs once the screening is over: few, since the screening's
   * points are already there (fewer only when most of them failed).
   */
  private static final int MODEL_AFTER_SCREENING = 3;

  /** The screening's state after the history, computed once per observation. */
  private Screening.State screeningState() {
    if (screenedAt != history.size()) {
      screened = screening.state(history, check);
      screenedAt = history.size();
    }
    return screened;
  }

  /** The screening's next point while it runs; empty without screening or once it is over. */
  private Optional<Configuration> screeningStep() {
    return screening == null ? Optional.empty() : screeningState().next();
  }

  /**
   * A held knob moved alone from the incumbent, when the screening says a probe is due and one is
   * admissible (see {@link Screening}).
   */
  private Optional<Configuration> probe(Fitted m) {
    if (screening == null || !screenPolicy.hold()) {
      return Optional.empty();
    }
    for (int segment : screeningState().probes()) {
      Configuration c = screening.probe(m.points()[m.bestIndex()], segment);
      if (check.accepts(c)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /**
   * The knobs the search moves: those the screening found active (grown since by probes), or every
   * knob without screening; the space's order.
   */
  public List<String> activeKnobs() {
    if (screening == null || !screenPolicy.hold() || !screeningState().done()) {
      return spec.space().names();
    }
    return new ActiveSubspace(encoder, screeningState().active()).activeKnobs();
  }

  private Fitted fit(List<Observation> ok, ActiveSubspace subspace) {
    return fit(ok, subspace, fitter);
  }

  private Fitted fit(List<Observation> ok, ActiveSubspace subspace, SurrogateFitter fitter) {
    List<Double> values = new ArrayList<>();
    for (Observation o : ok) {
      values.add(o.outcome().value(spec.objective().metric()).getAsDouble());
    }
    double[][] x = new double[ok.size()][];
    double[] standardErrors = new double[ok.size()];
    List<Configuration> configs = new ArrayList<>();
    String metric = spec.objective().metric();
    for (int i = 0; i < ok.size(); i++) {
      x[i] = canonical(ok.get(i).configuration());
      standardErrors[i] = ok.get(i).outcome().standardError(metric).orElse(0);
      configs.add(ok.get(i).configuration());
    }
    long seed = spec.seed() * 7_919L + history.size();
    TargetTransform transform =
        TargetScale.choose(
            values, spec.objective().direction(), x, standardErrors, categorical, seed);
    double[] y = new double[ok.size()];
    double[] knownNoise = new double[ok.size()];
    for (int i = 0; i < ok.size(); i++) {
      y[i] = transform.forward(values.get(i));
      knownNoise[i] = transform.forwardVariance(values.get(i), standardErrors[i]);
    }
    Surrogate surrogate;
    if (subspace == null) {
      surrogate = fitter.fit(x, y, knownNoise, categorical, seed);
    } else {
      double[][] projected = new double[x.length][];
      for (int i = 0; i < x.length; i++) {
        projected[i] = subspace.project(x[i]);
      }
      surrogate = subspace.lift(fitter.fit(projected, y, knownNoise, subspace.blocks(), seed));
    }
    FeasibilityModel feasibility = null;
    List<Observation> failed = history.withoutValue(spec.objective());
    if (!failed.isEmpty()) {
      List<Observation> all = history.all();
      double[][] fx = new double[all.size()][];
      boolean[] runs = new boolean[all.size()];
      for (int i = 0; i < all.size(); i++) {
        fx[i] = canonical(all.get(i).configuration());
        runs[i] = all.get(i).outcome().value(spec.objective().metric()).isPresent();
      }
      feasibility = FeasibilityModel.fit(fx, runs, seed + 1);
    }
    double[] means = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      means[i] = surrogate.mean(x[i]);
    }
    return new Fitted(surrogate, feasibility, transform, x, y, configs, means, subspace);
  }

  /** The point the model sees: decoded and re-encoded, so inactive knobs sit at the default. */
  private double[] canonical(Configuration c) {
    return encoder.encode(encoder.decode(encoder.encode(c)));
  }

  /**
   * A fit of the models to the observations at one moment; {@code subspace} is the knobs the model
   * sees and the search moves, null for all.
   */
  private record Fitted(
      Surrogate surrogate,
      FeasibilityModel feasibility,
      TargetTransform transform,
      double[][] points,
      double[] targets,
      List<Configuration> configurations,
      double[] posteriorMeans,
      ActiveSubspace subspace) {

    int bestIndex() {
      int best = 0;
      for (int i = 1; i < posteriorMeans.length; i++) {
        if (posteriorMeans[i] > posteriorMeans[best]) {
          best = i;
        }
      }
      return best;
    }

    double bestMean() {
      return posteriorMeans[bestIndex()];
    }

    /** The observed points with the best posterior means, distinct, best first. */
    List<double[]> anchors(int count) {
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < posteriorMeans.length; i++) {
        order.add(i);
      }
      order.sort(Comparator.comparingDouble(i -> -posteriorMeans[i]));
      List<double[]> out = new ArrayList<>();
      java.util.Set<java.util.List<Double>> seen = new java.util.HashSet<>();
      for (int i : order) {
        // points that differ in held knobs alone are one point to the model
        double[] modelled = subspace == null ? points[i] : subspace.project(points[i]);
        List<Double> key = java.util.Arrays.stream(modelled).boxed().toList();
        if (seen.add(key)) {
          out.add(points[i]);
        }
        if (out.size() == count) {
          break;
        }
      }
      return out;
    }
  }
}
