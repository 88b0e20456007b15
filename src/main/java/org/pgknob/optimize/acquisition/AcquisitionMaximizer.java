package org.pgknob.optimize.acquisition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
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
import org.pgknob.optimize.sampling.ScrambledSobol;
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
 * dropped before scoring. Candidates are scored exactly in the order of the acquisition's cheap
 * upper bound, until no bound left can reach the best values found (see {@link Acquisition}). The
 * best few are then refined by BOBYQA over their active numeric dimensions with the categories
 * fixed.
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
   * @param region when the search is confined to a trust region around the incumbent
   */
  public record Settings(
      int sobolCandidates,
      int perturbationsPerAnchor,
      int neighboursPerKnob,
      int refined,
      int refineEvaluations,
      TrustRegion.Policy region) {
    /** Candidates searched over the whole space. */
    public Settings(
        int sobolCandidates,
        int perturbationsPerAnchor,
        int neighboursPerKnob,
        int refined,
        int refineEvaluations) {
      this(
          sobolCandidates,
          perturbationsPerAnchor,
          neighboursPerKnob,
          refined,
          refineEvaluations,
          TrustRegion.Policy.NONE);
    }

    public static Settings defaults() {
      return new Settings(2000, 100, 8, 3, 120);
    }

    /** These settings with the search confined to a trust region as {@code region} says. */
    public Settings withRegion(TrustRegion.Policy region) {
      return new Settings(
          sobolCandidates,
          perturbationsPerAnchor,
          neighboursPerKnob,
          refined,
          refineEvaluations,
          region);
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
          refineEvaluations / 2,
          region);
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
   * drawn in a fixed order and scored in parallel; the result does not depend on the threads'
   * timing.
   */
  public Optional<Scored> maximize(Acquisition acquisition, List<double[]> anchors, Random random) {
    return maximize(acquisition, anchors, random, null);
  }

  /**
   * As {@link #maximize(Acquisition, List, Random)}, with each knob's relevance to the model (one
   * weight per {@link UnitCubeEncoder#segments() segment}, in their order; null for none): each
   * anchor also gets copies with a few knobs changed, drawn in proportion to their relevance.
   */
  public Optional<Scored> maximize(
      Acquisition acquisition, List<double[]> anchors, Random random, double[] relevance) {
    return maximize(acquisition, anchors, random, relevance, null);
  }

  /**
   * As {@link #maximize(Acquisition, List, Random, double[])}, every candidate inside {@code box}
   * (null for the whole cube): the Sobol points are drawn in it, the moves from the anchors cut to
   * it, and the refinement bounded by it.
   */
  public Optional<Scored> maximize(
      Acquisition acquisition,
      List<double[]> anchors,
      Random random,
      double[] relevance,
      TrustRegion.Box box) {
    List<double[]> raw = new ArrayList<>();
    ScrambledSobol sobol = new ScrambledSobol(encoder.dimensions(), random);
    for (int i = 0; i < settings.sobolCandidates(); i++) {
      raw.add(box == null ? sobol.next() : inBox(sobol.next(), box, random));
    }
    double[] scales = {0.02, 0.05, 0.15};
    for (double[] anchor : anchors) {
      for (int i = 0; i < settings.perturbationsPerAnchor(); i++) {
        raw.add(perturb(anchor, scales[i % scales.length], random));
      }
      raw.addAll(oneKnobNeighbours(anchor, random));
      if (relevance != null) {
        for (int i = 0; i < settings.perturbationsPerAnchor(); i++) {
          raw.add(perturbFew(anchor, relevance, random));
        }
      }
    }
    if (box != null) {
      raw.replaceAll(box::clamp);
    }
    int starts = Math.max(1, settings.refined());
    List<Scored> best = best(admissible(raw, acquisition), acquisition, starts);
    if (best.isEmpty()) {
      return Optional.empty();
    }
    // the refinements are independent: run in parallel, compared in a fixed order
    List<Scored> refined =
        IntStream.range(0, Math.min(settings.refined(), best.size()))
            .parallel()
            .mapToObj(i -> refine(best.get(i), acquisition, box))
            .toList();
    Scored winner = best.get(0);
    for (Scored r : refined) {
      if (r.value() > winner.value()) {
        winner = r;
      }
    }
    return Optional.of(winner);
  }

  /** An admissible candidate, canonical, with its acquisition's upper bound. */
  private record Candidate(Configuration configuration, double[] point, double bound) {}

  /**
   * The distinct admissible candidates among {@code raw}, as canonical points, in the order drawn.
   * Decoding, checking and bounding run in parallel; repeats are dropped afterwards, in order.
   */
  private List<Candidate> admissible(List<double[]> raw, Acquisition acquisition) {
    List<Candidate> all =
        IntStream.range(0, raw.size())
            .parallel()
            .mapToObj(
                i -> {
                  Configuration c = encoder.decode(raw.get(i));
                  if (!accepts.test(c)) {
                    return null;
                  }
                  double[] point = encoder.encode(c);
                  double bound = acquisition.upperBound(point);
                  return new Candidate(c, point, Double.isNaN(bound) ? Double.MAX_VALUE : bound);
                })
            .toList();
    Set<Configuration> seen = new HashSet<>();
    List<Candidate> out = new ArrayList<>();
    for (Candidate c : all) {
      if (c != null && seen.add(c.configuration())) {
        out.add(c);
      }
    }
    return out;
  }

  /** Candidates scored exactly per parallel batch, between checks of the bound. */
  private static final int BATCH = 64;

  /**
   * The {@code count} candidates with the highest acquisition values, best first (equal values in
   * the order drawn): exactly those a full scoring would rank first. Candidates are scored in the
   * order of their upper bounds, and scoring stops once no remaining bound reaches the {@code
   * count}-th value found: at 200 observations the exact value's triangular solve is half of a
   * prediction's cost, and most candidates are bounded out.
   */
  private static List<Scored> best(List<Candidate> candidates, Acquisition acquisition, int count) {
    Integer[] order = new Integer[candidates.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    // stable: equal bounds keep the order drawn
    Arrays.sort(order, Comparator.comparingDouble(i -> -candidates.get(i).bound()));
    double[] values = new double[candidates.size()];
    Arrays.fill(values, Double.NaN);
    PriorityQueue<Double> top = new PriorityQueue<>();
    for (int from = 0; from < order.length; from += BATCH) {
      if (top.size() == count && !reaches(candidates.get(order[from]).bound(), top.peek())) {
        break;
      }
      int to = Math.min(order.length, from + BATCH);
      int start = from;
      IntStream.range(start, to)
          .parallel()
          .forEach(k -> values[order[k]] = acquisition.value(candidates.get(order[k]).point()));
      for (int k = start; k < to; k++) {
        double v = values[order[k]];
        if (!Double.isNaN(v)) {
          top.add(v);
          if (top.size() > count) {
            top.poll();
          }
        }
      }
    }
    List<Scored> scored = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      if (!Double.isNaN(values[i])) {
        Candidate c = candidates.get(i);
        scored.add(new Scored(c.configuration(), c.point(), values[i]));
      }
    }
    // stable: equal values keep the order drawn
    scored.sort(Comparator.comparingDouble(Scored::value).reversed());
    return scored.subList(0, Math.min(count, scored.size()));
  }

  /**
   * Whether a candidate with this bound could still reach {@code threshold}; with a margin for the
   * rounding of a bound computed differently from the value it bounds.
   */
  private static boolean reaches(double bound, double threshold) {
    return bound >= threshold - 1e-9 * Math.max(1, Math.abs(threshold));
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

  /**
   * A point of the box from a point of the unit cube, with TuRBO's perturbation mask: each knob
   * takes the box's value with probability min(1, 20 / knobs), else keeps the incumbent's (the
   * box's center), so that among many knobs a candidate differs from the incumbent in a few; at
   * least one knob moves. A categorical knob moves as a whole.
   */
  private double[] inBox(double[] unit, TrustRegion.Box box, Random random) {
    List<UnitCubeEncoder.Segment> segments = encoder.segments();
    double share = Math.min(1, MASKED_KNOBS / segments.size());
    double[] out = box.center().clone();
    int forced = random.nextInt(segments.size());
    for (int i = 0; i < segments.size(); i++) {
      if (random.nextDouble() < share || i == forced) {
        UnitCubeEncoder.Segment s = segments.get(i);
        for (int d = s.offset(); d < s.offset() + s.width(); d++) {
          out[d] = box.lower()[d] + unit[d] * (box.upper()[d] - box.lower()[d]);
        }
      }
    }
    return out;
  }

  /** TuRBO's expected number of coordinates a candidate changes. */
  private static final double MASKED_KNOBS = 20;

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

  /** The scales of the steps of {@link #perturbFew}, on the unit cube. */
  private static final double[] FEW_SCALES = {0.05, 0.15, 0.4};

  /**
   * A copy of the anchor with one to three knobs changed, each drawn with probability proportional
   * to its relevance: where a few knobs among many matter (the usual PostgreSQL case), a Gaussian
   * step on every coordinate moves the relevant ones by as little as the irrelevant ones, while a
   * step on the few the model found relevant explores them at a scale that can leave a basin (as
   * TuRBO's and BoTorch's sampling around the best point perturb a subset of the coordinates).
   */
  private double[] perturbFew(double[] anchor, double[] relevance, Random random) {
    double[] x = anchor.clone();
    List<UnitCubeEncoder.Segment> segments = encoder.segments();
    double total = 0;
    for (double r : relevance) {
      total += r;
    }
    int changes = 1 + random.nextInt(Math.min(3, segments.size()));
    double sd = FEW_SCALES[random.nextInt(FEW_SCALES.length)];
    for (int c = 0; c < changes; c++) {
      int pick = segments.size() - 1;
      double u = random.nextDouble() * total;
      for (int i = 0; i < segments.size(); i++) {
        u -= relevance[i];
        if (u <= 0) {
          pick = i;
          break;
        }
      }
      UnitCubeEncoder.Segment s = segments.get(pick);
      if (s.width() == 1) {
        x[s.offset()] = clamp(x[s.offset()] + sd * random.nextGaussian());
      } else {
        for (int d = 0; d < s.width(); d++) {
          x[s.offset() + d] = 0;
        }
        x[s.offset() + random.nextInt(s.width())] = 1;
      }
    }
    return x;
  }

  /**
   * BOBYQA over the candidate's active numeric dimensions, categories fixed, inside {@code box}
   * (null for the unit cube).
   */
  private Scored refine(Scored start, Acquisition acquisition, TrustRegion.Box box) {
    List<Integer> dims = new ArrayList<>();
    for (UnitCubeEncoder.Segment s : encoder.segments()) {
      boolean open = box == null || box.upper()[s.offset()] > box.lower()[s.offset()];
      if (s.width() == 1
          && open
          && start.configuration().has(s.knob().name())
          && s.knob().isNumeric()) {
        dims.add(s.offset());
      }
    }
    // BOBYQA works on [0, 1] per dimension, mapped onto the box's side: its initial radius of
    // 0.05 must fit twice in every side, which a narrow trust region's sides would not allow
    double[] lower = new double[dims.size()];
    double[] side = new double[dims.size()];
    double[] x0 = new double[dims.size()];
    for (int i = 0; i < x0.length; i++) {
      int d = dims.get(i);
      lower[i] = box == null ? 0 : box.lower()[d];
      side[i] = box == null ? 1 : box.upper()[d] - box.lower()[d];
      x0[i] = clamp((start.point()[d] - lower[i]) / side[i]);
    }
    Scored[] best = {start};
    ToDoubleFunction<double[]> onDims =
        sub -> {
          double[] raw = start.point().clone();
          for (int i = 0; i < sub.length; i++) {
            raw[dims.get(i)] = lower[i] + sub[i] * side[i];
          }
          Configuration c = encoder.decode(raw);
          if (!accepts.test(c)) {
            return -1e300;
          }
          double[] point = encoder.encode(c);
          double v = acquisition.value(point);
          if (v > best[0].value()) {
            best[0] = new Scored(c, point, v);
          }
          return Double.isFinite(v) ? v : -1e300;
        };
    if (dims.size() == 1) {
      // BOBYQA needs two dimensions: scan a fine local grid instead (steps of 0.01 of the cube)
      for (int k = -16; k <= 16; k++) {
        onDims.applyAsDouble(new double[] {clamp(x0[0] + k * 0.01 / side[0])});
      }
    } else if (dims.size() >= 2) {
      double[] hi = new double[dims.size()];
      Arrays.fill(hi, 1);
      try {
        new BOBYQAOptimizer(2 * dims.size() + 1, 0.05, 1e-4)
            .optimize(
                new MaxEval(settings.refineEvaluations()),
                new ObjectiveFunction(onDims::applyAsDouble),
                GoalType.MAXIMIZE,
                new InitialGuess(x0),
                new SimpleBounds(new double[dims.size()], hi));
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
