package org.pgknob.optimize.acquisition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import org.pgknob.optimize.ScrambledSobol;
import org.pgknob.space.Configuration;
import org.pgknob.space.UnitCubeEncoder;

/**
 * Finds the admissible configuration with the highest acquisition value over the mixed space.
 *
 * <p>Candidates: scrambled Sobol points over the whole cube, plus perturbations of the best
 * observed points (the anchors), where improvement is most likely. Each candidate is first decoded
 * to a configuration and re-encoded, so integers are whole, one-hot blocks are valid and inactive
 * knobs sit at their defaults: the model only ever sees points that can be run. Candidates the
 * check refuses (space, known constraints, repeats) are dropped before scoring. The best few are
 * then refined by BOBYQA over their active numeric dimensions with the categories fixed.
 */
public final class AcquisitionMaximizer {
  /**
   * How many candidates of each kind, and how hard to refine.
   *
   * @param sobolCandidates scrambled Sobol points per call
   * @param perturbationsPerAnchor perturbed copies of each anchor
   * @param refined how many of the best candidates BOBYQA refines
   * @param refineEvaluations acquisition evaluations per refinement
   */
  public record Settings(
      int sobolCandidates, int perturbationsPerAnchor, int refined, int refineEvaluations) {
    public static Settings defaults() {
      return new Settings(2000, 100, 3, 120);
    }
  }

  /** A candidate and its acquisition value. */
  public record Scored(Configuration configuration, double[] point, double value) {}

  private final UnitCubeEncoder encoder;
  private final Predicate<Configuration> accepts;
  private final Settings settings;

  public AcquisitionMaximizer(
      UnitCubeEncoder encoder, Predicate<Configuration> accepts, Settings settings) {
    this.encoder = encoder;
    this.accepts = accepts;
    this.settings = settings;
  }

  /** The best admissible candidate, or empty when no candidate was admissible. */
  public Optional<Scored> maximize(
      ToDoubleFunction<double[]> acquisition, List<double[]> anchors, Random random) {
    Set<Configuration> seen = new HashSet<>();
    List<Scored> scored = new ArrayList<>();
    ScrambledSobol sobol = new ScrambledSobol(encoder.dimensions(), random);
    for (int i = 0; i < settings.sobolCandidates(); i++) {
      score(sobol.next(), acquisition, seen, scored);
    }
    double[] scales = {0.02, 0.05, 0.15};
    for (double[] anchor : anchors) {
      for (int i = 0; i < settings.perturbationsPerAnchor(); i++) {
        score(perturb(anchor, scales[i % scales.length], random), acquisition, seen, scored);
      }
    }
    if (scored.isEmpty()) {
      return Optional.empty();
    }
    scored.sort(Comparator.comparingDouble(Scored::value).reversed());
    Scored best = scored.get(0);
    for (int i = 0; i < Math.min(settings.refined(), scored.size()); i++) {
      Scored refined = refine(scored.get(i), acquisition);
      if (refined.value() > best.value()) {
        best = refined;
      }
    }
    return Optional.of(best);
  }

  private void score(
      double[] raw,
      ToDoubleFunction<double[]> acquisition,
      Set<Configuration> seen,
      List<Scored> out) {
    Configuration c = encoder.decode(raw);
    if (!seen.add(c) || !accepts.test(c)) {
      return;
    }
    double[] point = encoder.encode(c);
    double v = acquisition.applyAsDouble(point);
    if (!Double.isNaN(v)) {
      out.add(new Scored(c, point, v));
    }
  }

  /** Gaussian steps on numeric dimensions; each categorical knob re-drawn with probability 0.1. */
  private double[] perturb(double[] anchor, double sd, Random random) {
    double[] x = anchor.clone();
    for (UnitCubeEncoder.Segment s : encoder.segments()) {
      if (s.width() == 1) {
        x[s.offset()] = clamp(x[s.offset()] + sd * random.nextGaussian());
      } else if (random.nextDouble() < 0.1) {
        for (int d = 0; d < s.width(); d++) {
          x[s.offset() + d] = 0;
        }
        x[s.offset() + random.nextInt(s.width())] = 1;
      }
    }
    return x;
  }

  /** BOBYQA over the candidate's active numeric dimensions, categories fixed. */
  private Scored refine(Scored start, ToDoubleFunction<double[]> acquisition) {
    List<Integer> dims = new ArrayList<>();
    for (UnitCubeEncoder.Segment s : encoder.segments()) {
      if (s.width() == 1 && start.configuration().has(s.knob().name()) && s.knob().isNumeric()) {
        dims.add(s.offset());
      }
    }
    Scored[] best = {start};
    ToDoubleFunction<double[]> onDims =
        sub -> {
          double[] raw = start.point().clone();
          for (int i = 0; i < sub.length; i++) {
            raw[dims.get(i)] = sub[i];
          }
          Configuration c = encoder.decode(raw);
          if (!accepts.test(c)) {
            return -1e300;
          }
          double[] point = encoder.encode(c);
          double v = acquisition.applyAsDouble(point);
          if (v > best[0].value()) {
            best[0] = new Scored(c, point, v);
          }
          return Double.isFinite(v) ? v : -1e300;
        };
    double[] x0 = new double[dims.size()];
    for (int i = 0; i < x0.length; i++) {
      x0[i] = start.point()[dims.get(i)];
    }
    if (dims.size() == 1) {
      // BOBYQA needs two dimensions: scan a fine local grid instead
      for (int k = -16; k <= 16; k++) {
        onDims.applyAsDouble(new double[] {clamp(x0[0] + k * 0.01)});
      }
    } else if (dims.size() >= 2) {
      double[] lo = new double[dims.size()];
      double[] hi = new double[dims.size()];
      java.util.Arrays.fill(hi, 1);
      try {
        new BOBYQAOptimizer(2 * dims.size() + 1, 0.05, 1e-4)
            .optimize(
                new MaxEval(settings.refineEvaluations()),
                new ObjectiveFunction(onDims::applyAsDouble),
                GoalType.MAXIMIZE,
                new InitialGuess(x0),
                new SimpleBounds(lo, hi));
      } catch (RuntimeException e) {
        // out of evaluations or a degenerate model: keep the best point seen
      }
    }
    return best[0];
  }

  private static double clamp(double v) {
    return Math.max(0, Math.min(1, v));
  }
}
