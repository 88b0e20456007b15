package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pgknob.PgknobException;
import org.pgknob.optimize.acquisition.AcquisitionMaximizer;
import org.pgknob.optimize.acquisition.TrustRegion;
import org.pgknob.optimize.model.BowlMeanFitter;
import org.pgknob.optimize.model.CategoricalKernel;
import org.pgknob.optimize.model.GpFitter;
import org.pgknob.optimize.model.RandomForestSurrogate;
import org.pgknob.optimize.model.SaasboFitter;
import org.pgknob.optimize.model.SurrogateFitter;

/**
 * Builds optimizers: one typed factory each ({@link #bayes}, {@link #random}, {@link #sweep}) for
 * the session and the command line, and {@link #create} from an {@link OptimizerKind} and an
 * options map, for the benchmark and the contract tests that name their settings as text.
 *
 * <p>Options (all optional):
 *
 * <ul>
 *   <li>{@code surrogate}: {@code gp} (default) or {@code rf}, for bayes
 *   <li>{@code prior}: the Gaussian process's length-scale prior, {@code saas} (sparse, for spaces
 *       where most knobs do nothing), {@code scaled} (default; dimension-scaled log-normal), or
 *       {@code auto} (the default's fits and a SAAS fit compete by leave-one-out density, from 12
 *       dimensions up), {@code sparse} (SAAS from {@link GpFitter#SPARSE_FROM_DIMENSIONS} unit-cube
 *       dimensions up, scaled below), {@code saasbo} (fully Bayesian SAAS: NUTS over the global
 *       scale and the length scales, expected improvement averaged over 16 sampled processes; see
 *       {@link SaasboFitter}), {@code saasbo:median} (the chain at every observation, expected
 *       improvement from the one process at the posterior median), {@code saasbo:every} (the chain
 *       at every observation, the 16-process average); {@code saas:TAU} and {@code auto:TAU} set
 *       the SAAS global scale
 *   <li>{@code categorical}: how the Gaussian process compares categorical knobs, {@code onehot}
 *       (default; a dimension per category) or {@code overlap} (one input per knob, equal or not:
 *       see {@link CategoricalKernel}), for the MAP fit and the {@code saasbo} priors' chains alike
 *   <li>{@code mean}: the maximum-a-posteriori Gaussian process's prior mean, {@code bowl}
 *       (default; lower towards the walls of the space when the observations say so, see {@link
 *       BowlMeanFitter}) or {@code constant}
 *   <li>{@code region}: {@code none} (default) or {@code turbo}: from {@link
 *       TrustRegion.Policy#FROM_DIMENSIONS} unit-cube dimensions up, the acquisition is searched in
 *       TuRBO's trust region around the incumbent ({@link TrustRegion}); {@code turbo:F} halves it
 *       after F failures in a row instead of TuRBO's max(4, dimensions)
 *   <li>{@code portfolio}: {@code single} (default) or {@code hedge}, with {@code surrogate=gp} and
 *       the default prior: on a space of numeric knobs, each suggestion comes from one of two
 *       Gaussian processes, {@link GpFitter}'s choice of kernel and the product kernel alone under
 *       weak priors, the one whose past nominations the data rate higher more often ({@link
 *       ModelHedge}); spaces with categorical knobs keep one model
 *   <li>{@code initial}: at most this many initial design points, for bayes; or {@code screen}:
 *       from 10 knobs up, a screening design that measures each knob's effect replaces the initial
 *       design, and the search moves only the knobs with an effect (see {@link Screening}); {@code
 *       screen:design} the same screening as the initial design, every knob searched
 *   <li>{@code knobs}: comma-separated knob names to sweep first, for sweep
 *   <li>{@code maxKnobs}: sweep at most this many knobs, for sweep
 * </ul>
 */
public final class Optimizers {
  private static final Set<String> OPTIONS =
      Set.of(
          "surrogate",
          "prior",
          "categorical",
          "mean",
          "region",
          "portfolio",
          "knobs",
          "maxKnobs",
          "initial");

  private Optimizers() {}

  /** An optimizer of {@code kind} with the options of the command line (see above). */
  public static Optimizer create(
      OptimizerKind kind, OptimizerSpec spec, Map<String, String> options) {
    for (String key : options.keySet()) {
      if (!OPTIONS.contains(key)) {
        throw new PgknobException(
            "unknown optimizer option '" + key + "'", "known options: " + OPTIONS);
      }
    }
    return switch (kind) {
      case BAYES ->
          bayes(
              spec,
              surrogate(
                  surrogateKind(options),
                  options.getOrDefault("prior", "scaled"),
                  options.getOrDefault("categorical", DEFAULT_CATEGORICAL.label()),
                  options.getOrDefault("mean", BOWL)),
              alternative(options),
              initialCap(options.getOrDefault("initial", "" + Bayes.INITIAL_CAP)),
              region(options.getOrDefault("region", "none")),
              screening(options.getOrDefault("initial", "" + Bayes.INITIAL_CAP)));
      case RANDOM -> random(spec);
      case SWEEP -> sweep(spec, sweepPlan(options));
    };
  }

  private static SurrogateKind surrogateKind(Map<String, String> options) {
    return options.containsKey("surrogate")
        ? SurrogateKind.of(options.get("surrogate"))
        : SurrogateKind.GP;
  }

  /** The option {@code portfolio=hedge}: see {@link #alternative}. */
  static final String HEDGE = "hedge";

  /** The option {@code portfolio=single}, the default: one model, {@code GpFitter}'s choice. */
  static final String SINGLE = "single";

  /**
   * The hedge's second model that {@code portfolio} asks for, null for none: with {@code hedge} the
   * product kernel alone under weak priors ({@link GpFitter#productWithWeakPriors}), with the same
   * prior mean, which {@link ModelHedge} weighs against the main model on spaces of numeric knobs.
   * Not the default: over 60 seeds of the benchmark it was a coin on every function
   * (bench/optimizer-rounds.md, round 19), for twice the work per suggestion.
   */
  static SurrogateFitter alternative(Map<String, String> options) {
    String portfolio = options.getOrDefault("portfolio", SINGLE);
    if (!portfolio.equals(HEDGE) && !portfolio.equals(SINGLE)) {
      throw new PgknobException(
          "unknown portfolio '" + portfolio + "'",
          "choose portfolio=hedge (two Gaussian-process models, the search learns which to"
              + " follow) or portfolio=single");
    }
    if (portfolio.equals(SINGLE)) {
      return null;
    }
    if (surrogateKind(options) != SurrogateKind.GP
        || !options.getOrDefault("prior", "scaled").equals("scaled")) {
      throw new PgknobException(
          "portfolio=hedge needs surrogate=gp and prior=scaled",
          "drop portfolio=hedge, or the surrogate and prior options");
    }
    String mean = options.getOrDefault("mean", BOWL);
    return withMean(GpFitter.productWithWeakPriors(), mean);
  }

  /** A Bayesian search with the {@code surrogate} model and the default length-scale prior. */
  public static Bayes bayes(OptimizerSpec spec, SurrogateKind surrogate) {
    return bayes(spec, surrogate(surrogate));
  }

  /**
   * As {@link #bayes(OptimizerSpec, SurrogateKind)} with a constant prior mean: a model for
   * predicting what a change between two configurations does, not for searching. The bowl of the
   * default ({@link BowlMeanFitter}) is a search aid that gives even a knob the model finds nearly
   * inert a share of its curvature, so it would predict a loss for moving such a knob to a default
   * at a wall of its range that no observation shows.
   */
  public static Bayes bayesWithConstantMean(OptimizerSpec spec, SurrogateKind surrogate) {
    return bayes(spec, surrogate(surrogate, "scaled", DEFAULT_CATEGORICAL.label(), CONSTANT));
  }

  private static Bayes bayes(OptimizerSpec spec, SurrogateFitter fitter) {
    return bayes(spec, fitter, null, Bayes.INITIAL_CAP, DEFAULT_REGION, Screening.Policy.NONE);
  }

  /** The option {@code initial=screen}: a screening design instead of the initial design. */
  static final String SCREEN = "screen";

  /**
   * The option {@code initial=screen:design}: the screening's points instead of the initial design,
   * every knob kept in the model and the search.
   */
  static final String SCREEN_DESIGN = "screen:design";

  /** The initial design's cap that {@code initial} sets: N, or the default with screen. */
  static int initialCap(String label) {
    if (label.equals(SCREEN) || label.equals(SCREEN_DESIGN)) {
      return Bayes.INITIAL_CAP;
    }
    try {
      int cap = Integer.parseInt(label.trim());
      if (cap >= 0) {
        return cap;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new PgknobException(
        "unknown initial design '" + label + "'",
        "choose initial=N (at most N initial points, N >= 0), initial=screen (screen each knob's"
            + " effect first, from "
            + Screening.Policy.DEFAULT.fromKnobs()
            + " knobs up, and search the knobs with an effect) or initial=screen:design (the"
            + " screening as the initial design, every knob searched)");
  }

  /**
   * The screening policy {@code initial} sets: from 10 knobs up with screen (inert knobs held) or
   * screen:design (nothing held), else none.
   */
  static Screening.Policy screening(String label) {
    return switch (label) {
      case SCREEN -> Screening.Policy.DEFAULT;
      case SCREEN_DESIGN -> Screening.Policy.DESIGN_ONLY;
      default -> Screening.Policy.NONE;
    };
  }

  /** Where the acquisition is searched unless told otherwise: the whole space. */
  public static final TrustRegion.Policy DEFAULT_REGION = TrustRegion.Policy.NONE;

  /** The trust-region policy labelled {@code label}: none, turbo, or turbo:F (F failures). */
  static TrustRegion.Policy region(String label) {
    if (label.equals("none")) {
      return TrustRegion.Policy.NONE;
    }
    if (label.equals("turbo")) {
      return TrustRegion.Policy.turbo(0);
    }
    if (label.startsWith("turbo:")) {
      try {
        int failures = Integer.parseInt(label.substring(6));
        if (failures > 0) {
          return TrustRegion.Policy.turbo(failures);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new PgknobException(
        "unknown trust region '" + label + "'",
        "choose region=none, region=turbo or region=turbo:F (F failures in a row halve it, F > 0)");
  }

  private static Bayes bayes(
      OptimizerSpec spec,
      SurrogateFitter fitter,
      SurrogateFitter alternative,
      int initial,
      TrustRegion.Policy region,
      Screening.Policy screen) {
    if (spec.space().size() > Bayes.MAX_KNOBS) {
      throw new PgknobException(
          "bayes searches at most "
              + Bayes.MAX_KNOBS
              + " knobs, but the space "
              + spec.space().source()
              + " has "
              + spec.space().size()
              + ": a suggestion's cost grows with knobs x observations (measured up to 40 knobs,"
              + " within 3 s at 200 observations), and a Gaussian process learns little of so"
              + " many knobs from a few dozen trials",
          "keep only the knobs that matter, which a sweep ranks, or use --optimizer random");
    }
    return new Bayes(
        spec,
        fitter,
        alternative,
        AcquisitionMaximizer.Settings.defaults().withRegion(region),
        initial,
        screen);
  }

  /** Random search: the fallback when a model has no candidate left. */
  public static RandomSearch random(OptimizerSpec spec) {
    return new RandomSearch(spec);
  }

  /** A sweep of the knobs {@code plan} names, one at a time over each knob's grid. */
  public static Sweep sweep(OptimizerSpec spec, SweepPlan plan) {
    return new Sweep(spec, plan);
  }

  /** How the Gaussian process compares categorical knobs unless told otherwise. */
  public static final CategoricalKernel DEFAULT_CATEGORICAL = CategoricalKernel.ONE_HOT;

  /** The option {@code mean=bowl}, the default: see {@link BowlMeanFitter}. */
  static final String BOWL = "bowl";

  /** The option {@code mean=constant}: the Gaussian process's prior mean is 0 everywhere. */
  static final String CONSTANT = "constant";

  /**
   * The option {@code mean=centred}: the bowl with its centre fitted in the most relevant inputs
   * (see {@link BowlMeanFitter.Term#fitCentred}).
   */
  static final String CENTRED = "centred";

  /** The fitter of a {@code kind} surrogate, a Gaussian process with the default prior. */
  public static SurrogateFitter surrogate(SurrogateKind kind) {
    return surrogate(kind, "scaled");
  }

  /**
   * The fitter of a {@code kind} surrogate with this length-scale prior (see above), the
   * categorical kernel labelled {@code categorical} and the default prior mean.
   */
  public static SurrogateFitter surrogate(SurrogateKind kind, String prior, String categorical) {
    return surrogate(kind, prior, categorical, BOWL);
  }

  /**
   * As {@link #surrogate(SurrogateKind, String, String)}, with the prior mean labelled {@code mean}
   * ({@code bowl}, {@code centred} or {@code constant}), which applies to the maximum-a-posteriori
   * Gaussian process (the fully Bayesian {@code saasbo} priors and the random forest keep their
   * own).
   */
  public static SurrogateFitter surrogate(
      SurrogateKind kind, String prior, String categorical, String mean) {
    if (!mean.equals(BOWL) && !mean.equals(CONSTANT) && !mean.equals(CENTRED)) {
      throw new PgknobException(
          "unknown prior mean '" + mean + "'", "choose mean=bowl, mean=centred or mean=constant");
    }
    CategoricalKernel kernel =
        CategoricalKernel.of(categorical)
            .orElseThrow(
                () ->
                    new PgknobException(
                        "unknown categorical kernel '" + categorical + "'",
                        "choose categorical=onehot or categorical=overlap"));
    SurrogateFitter fitter = withoutMean(kind, prior);
    if (fitter instanceof GpFitter gp) {
      return withMean(gp.withCategoricalKernel(kernel), mean);
    }
    if (fitter instanceof SaasboFitter saasbo) {
      return saasbo.withCategoricalKernel(kernel);
    }
    return fitter;
  }

  /**
   * The fitter of a {@code kind} surrogate with the default prior mean; {@code prior} is a Gaussian
   * process's (see above).
   */
  public static SurrogateFitter surrogate(SurrogateKind kind, String prior) {
    return withMean(withoutMean(kind, prior), BOWL);
  }

  /** {@code fitter} under the prior mean labelled {@code mean}, if it is a MAP Gaussian process. */
  private static SurrogateFitter withMean(SurrogateFitter fitter, String mean) {
    if (fitter instanceof GpFitter gp && !mean.equals(CONSTANT)) {
      return new BowlMeanFitter(gp, mean.equals(CENTRED));
    }
    return fitter;
  }

  /** The fitter of a {@code kind} surrogate with a {@code prior}, the prior mean constant. */
  private static SurrogateFitter withoutMean(SurrogateKind kind, String prior) {
    double tau;
    boolean adaptive = prior.equals("auto") || prior.startsWith("auto:");
    if (adaptive) {
      prior = prior.equals("auto") ? "saas" : "saas:" + prior.substring(5);
    }
    if (prior.equals("saasbo") && kind == SurrogateKind.GP) {
      return new SaasboFitter();
    }
    if (prior.equals("saasbo:median") && kind == SurrogateKind.GP) {
      return SaasboFitter.medianEveryObservation();
    }
    if (prior.equals("saasbo:every") && kind == SurrogateKind.GP) {
      return SaasboFitter.everyObservation();
    }
    if (prior.equals("sparse") && kind == SurrogateKind.GP) {
      return GpFitter.sparseFrom(GpFitter.SPARSE_FROM_DIMENSIONS, GpFitter.SAAS_TAU);
    }
    if (prior.equals("scaled")) {
      tau = 0;
    } else if (prior.equals("saas")) {
      tau = GpFitter.SAAS_TAU;
    } else if (prior.startsWith("saas:")) {
      try {
        tau = Double.parseDouble(prior.substring(5));
      } catch (NumberFormatException e) {
        tau = -1;
      }
    } else {
      tau = -1;
    }
    if (!(tau >= 0)) {
      throw new PgknobException(
          "unknown length-scale prior '" + prior + "'",
          "choose saasbo, saasbo:median, saasbo:every, sparse, auto, auto:TAU, saas, saas:TAU or scaled");
    }
    return switch (kind) {
      case GP -> adaptive ? GpFitter.adaptive(tau) : GpFitter.withSaasPrior(tau);
      case RF -> new RandomForestSurrogate.Fitter();
    };
  }

  private static SweepPlan sweepPlan(Map<String, String> options) {
    List<String> knobs = new ArrayList<>();
    String list = options.getOrDefault("knobs", "").trim();
    if (!list.isEmpty()) {
      Arrays.stream(list.split(",")).map(String::trim).forEach(knobs::add);
    }
    int maxKnobs;
    try {
      maxKnobs = Integer.parseInt(options.getOrDefault("maxKnobs", "0").trim());
    } catch (NumberFormatException e) {
      throw new PgknobException(
          "maxKnobs must be a whole number, but got '" + options.get("maxKnobs") + "'",
          "give a count of knobs, 0 for all");
    }
    if (maxKnobs < 0) {
      throw new PgknobException("maxKnobs must be >= 0, but got " + maxKnobs, "0 means all");
    }
    return new SweepPlan(knobs, maxKnobs);
  }
}
