package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pgknob.PgknobException;
import org.pgknob.optimize.model.GpFitter;
import org.pgknob.optimize.model.RandomForestSurrogate;
import org.pgknob.optimize.model.SurrogateFitter;

/**
 * Builds optimizers by name, for the command line and the session.
 *
 * <p>Methods: {@code bayes}, {@code random}, {@code sweep}. Options (all optional):
 *
 * <ul>
 *   <li>{@code surrogate}: {@code gp} (default) or {@code rf}, for bayes
 *   <li>{@code prior}: the Gaussian process's length-scale prior, {@code saas} (sparse, for spaces
 *       where most knobs do nothing), {@code scaled} (default; dimension-scaled log-normal), or
 *       {@code auto} (the default's fits and a SAAS fit compete by leave-one-out density, from 12
 *       dimensions up); {@code saas:TAU} and {@code auto:TAU} set the SAAS global scale
 *   <li>{@code initial}: at most this many initial design points, for bayes
 *   <li>{@code knobs}: comma-separated knob names to sweep first, for sweep
 *   <li>{@code maxKnobs}: sweep at most this many knobs, for sweep
 * </ul>
 */
public final class Optimizers {
  public static final List<String> METHODS = List.of("bayes", "random", "sweep");
  private static final Set<String> OPTIONS =
      Set.of("surrogate", "prior", "knobs", "maxKnobs", "initial");

  private Optimizers() {}

  public static Optimizer create(String method, OptimizerSpec spec, Map<String, String> options) {
    for (String key : options.keySet()) {
      if (!OPTIONS.contains(key)) {
        throw new PgknobException(
            "unknown optimizer option '" + key + "'", "known options: " + OPTIONS);
      }
    }
    if (method.equals("bayes") && spec.space().size() > Bayes.MAX_KNOBS) {
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
          "keep the knobs that matter (a sweep ranks them), or use --optimizer random");
    }
    return switch (method) {
      case "bayes" ->
          new Bayes(
              spec,
              surrogate(
                  options.getOrDefault("surrogate", "gp"), options.getOrDefault("prior", "scaled")),
              org.pgknob.optimize.acquisition.AcquisitionMaximizer.Settings.defaults(),
              Integer.parseInt(options.getOrDefault("initial", "" + Bayes.INITIAL_CAP)));
      case "random" -> new RandomSearch(spec);
      case "sweep" -> new Sweep(spec, sweepPlan(options));
      default ->
          throw new PgknobException(
              "unknown optimizer '" + method + "'", "choose one of " + String.join(", ", METHODS));
    };
  }

  /** The surrogate fitter named {@code gp} or {@code rf}. */
  public static SurrogateFitter surrogate(String name) {
    return surrogate(name, "scaled");
  }

  /** The surrogate fitter named {@code gp} (with this length-scale prior) or {@code rf}. */
  public static SurrogateFitter surrogate(String name, String prior) {
    double tau;
    boolean adaptive = prior.equals("auto") || prior.startsWith("auto:");
    if (adaptive) {
      prior = prior.equals("auto") ? "saas" : "saas:" + prior.substring(5);
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
          "choose auto, auto:TAU, saas, saas:TAU or scaled");
    }
    return switch (name) {
      case "gp" -> new GpFitter(true, tau, adaptive);
      case "rf" -> new RandomForestSurrogate.Fitter();
      default -> throw new PgknobException("unknown surrogate '" + name + "'", "choose gp or rf");
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
