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
import java.util.stream.IntStream;
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
 * observed points (the anchors), where improvement is most likely, and the anchors' one-knob
 * neighbours. Each candidate is first decoded to a configuration and re-encoded, so integers are
 * whole, one-hot blocks are valid and inactive knobs sit at their defaults: the model only ever
 * sees points that can be run. Candidates the check refuses (space, known constraints, repeats) are
 * dropped before scoring. The best few are then refined by BOBYQA over their active numeric
 * dimensions with the categories fixed.
 */
public final class AcquisitionMaximizer {
  /**
   * How many candidates of each kind, and how hard to refine.
   *
   * @param sobolCandidates scrambled Sobol points per call
   * @param perturbationsPerAnchor perturbed copies of each anchor
   * @param neighboursPerKnob values tried per numeric knob among each anchor's one-knob neighbours
   * @param refined how many of the best candidates BOBYQA refines
   * @param refineEvaluations acquisition evaluations per refinement
   */
  public record Settings(
      int sobolCandidates,
      int perturbationsPerAnchor,
      int neighboursPerKnob,
      int refined,
      int refineEvaluations) {
    public static Settings defaults() {
      return new Settings(2000, 100, 8, 3, 120);
    }

    /**
     * Half the random candidates (Sobol points, perturbations) and half the refinement's
     * evaluations; every one-knob neighbour kept.
     */
    public Settings halved() {
      return new Settings(
          sobolCandidates / 2,
          perturbationsPerAnchor / 2,
          neighboursPerKnob,
          refined,
          refineEvaluations / 2);
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

  /**
   * The best admissible candidate, or empty when no candidate was admissible. The candidates are
   * drawn in a fixed order and scored in parallel ({@code acquisition} must be safe to call from
   * several threads); the result does not depend on the threads' timing.
   */
  public Optional<Scored> maximize(
      ToDoubleFunction<double[]> acquisition, List<double[]> anchors, Random random) {
    Candidates candidates = new Candidates();
    ScrambledSobol sobol = new ScrambledSobol(encoder.dimensions(), random);
    for (int i = 0; i < settings.sobolCandidates(); i++) {
      candidates.admit(sobol.next());
    }
    double[] scales = {0.02, 0.05, 0.15};
    for (double[] anchor : anchors) {
      for (int i = 0; i < settings.perturbationsPerAnchor(); i++) {
        candidates.admit(perturb(anchor, scales[i % scales.length], random));
      }
      for (double[] neighbour : oneKnobNeighbours(anchor, random)) {
        candidates.admit(neighbour);
      }
    }
    List<Scored> scored = candidates.score(acquisition);
    if (scored.isEmpty()) {
      return Optional.empty();
    }
    // stable: equal values keep the order drawn
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

  /** The distinct admissible candidates, in the order drawn, as canonical points. */
  private final class Candidates {
    private final Set<Configuration> seen = new HashSet<>();
    private final List<Configuration> configurations = new ArrayList<>();
    private final List<double[]> points = new ArrayList<>();

    void admit(double[] raw) {
      Configuration c = encoder.decode(raw);
      if (seen.add(c) && accepts.test(c)) {
        configurations.add(c);
        points.add(encoder.encode(c));
      }
    }

    List<Scored> score(ToDoubleFunction<double[]> acquisition) {
      double[] values =
          IntStream.range(0, points.size())
              .parallel()
              .mapToDouble(i -> acquisition.applyAsDouble(points.get(i)))
              .toArray();
      List<Scored> out = new ArrayList<>();
      for (int i = 0; i < values.length; i++) {
        if (!Double.isNaN(values[i])) {
          out.add(new Scored(configurations.get(i), points.get(i), values[i]));
        }
      }
      return out;
    }
  }

  /**
   * Copies of the anchor with exactly one knob changed: a few values of each numeric knob spread
   * over its range (one per stratum), every value of each categorical one, as SMAC's local search
   * does. Most of what a setting does to throughput it does on its own (the premise of
   * one-at-a-time sweeps), and the moves that cross to another basin of one knob are single-knob
   * moves far from the anchor, which Gaussian steps on every coordinate at once rarely make.
   */
  private List<double[]> oneKnobNeighbours(double[] anchor, Random random) {
    List<double[]> out = new ArrayList<>();
    int values = settings.neighboursPerKnob();
    for (UnitCubeEncoder.Segment s : encoder.segments()) {
      if (s.width() == 1) {
        for (int i = 0; i < values; i++) {
          double[] x = anchor.clone();
          x[s.offset()] = (i + random.nextDouble()) / values;
          out.add(x);
        }
      } else {
        for (int v = 0; v < s.width(); v++) {
          double[] x = anchor.clone();
          for (int d = 0; d < s.width(); d++) {
            x[s.offset() + d] = d == v ? 1 : 0;
          }
          out.add(x);
        }
      }
    }
    return out;
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
