package org.pgknob.optimize.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The No-U-Turn sampler (Hoffman and Gelman 2014, "The No-U-Turn Sampler", algorithm 6: slice
 * variable, recursive doubling, dual-averaging step size) with a diagonal mass matrix estimated in
 * the warm-up, as Stan and NumPyro do: Hamiltonian Monte Carlo without a hand-tuned path length.
 *
 * <p>Warm-up: the step size is adapted throughout (target acceptance {@link #TARGET_ACCEPT}); from
 * 15% to 40% and from 40% to 85% of it the positions are collected, and at the end of each window
 * the inverse mass matrix becomes their variance (shrunk towards 1e-3 as Stan does) and the step
 * size adaptation restarts. The last 15% adapt the step size to the final mass matrix.
 *
 * <p>Deterministic for a {@link Random}: the same seed, density and start give the same draws.
 */
public final class Nuts {
  /** A log density (up to a constant) with its gradient written into {@code gradient}. */
  public interface LogDensity {
    /** The log density at {@code q}; minus infinity (or NaN) where undefined. */
    double value(double[] q, double[] gradient);
  }

  /**
   * Where a chain stands: its position, step size and inverse mass matrix, so that the next run on
   * a density that changed a little (one more observation) starts adapted.
   */
  public record State(double[] position, double stepSize, double[] inverseMass) {
    public State {
      position = position.clone();
      inverseMass = inverseMass.clone();
    }

    @Override
    public double[] position() {
      return position.clone();
    }

    @Override
    public double[] inverseMass() {
      return inverseMass.clone();
    }
  }

  /** The kept draws and the state after the last one. */
  public record Run(List<double[]> draws, State end, int gradientEvaluations) {}

  /** Mean acceptance the step size is tuned to (NumPyro's default). */
  static final double TARGET_ACCEPT = 0.8;

  /** A trajectory stops doubling after 2^this leapfrog steps (SAASBO's and NumPyro's 6 for it). */
  static final int MAX_DEPTH = 6;

  /** Energy error beyond which a trajectory counts as divergent (Hoffman and Gelman's Δmax). */
  private static final double MAX_ENERGY_ERROR = 1000;

  private final LogDensity density;
  private final Random random;
  private final int dims;
  private int evaluations;

  public Nuts(LogDensity density, int dims, Random random) {
    this.density = density;
    this.dims = dims;
    this.random = random;
  }

  /**
   * {@code warmup} adapting iterations from {@code start}, then {@code samples} iterations of which
   * every {@code thin}-th is kept. When {@code start} carries a step size and mass matrix from an
   * earlier run, the warm-up starts from them (a short warm-up suffices).
   */
  public Run sample(State start, int warmup, int samples, int thin) {
    double[] q = start.position();
    double[] inverseMass = start.inverseMass();
    double[] gradient = new double[dims];
    double logp = density.value(q, gradient);
    if (!Double.isFinite(logp)) {
      throw new IllegalArgumentException("the chain's start has no finite log density");
    }
    double step =
        start.stepSize() > 0 ? start.stepSize() : initialStep(q, logp, gradient, inverseMass);
    DualAveraging adapt = new DualAveraging(step);
    int windowStart = (int) (0.15 * warmup);
    int windowMiddle = (int) (0.40 * warmup);
    int windowEnd = (int) (0.85 * warmup);
    Welford window = new Welford(dims);
    List<double[]> draws = new ArrayList<>();
    for (int it = 0; it < warmup + samples; it++) {
      boolean warming = it < warmup;
      Transition t = transition(q, logp, gradient, warming ? adapt.step() : step, inverseMass);
      q = t.q;
      logp = t.logp;
      gradient = t.gradient;
      if (warming) {
        adapt.update(t.acceptance);
        if (it >= windowStart && it < windowEnd) {
          window.add(q);
        }
        if ((it + 1 == windowMiddle || it + 1 == windowEnd) && window.count() >= 10) {
          inverseMass = window.regularizedVariance();
          window = new Welford(dims);
          adapt = new DualAveraging(initialStep(q, logp, gradient, inverseMass));
        }
        step = adapt.finalStep();
      } else if ((it - warmup + 1) % thin == 0) {
        draws.add(q.clone());
      }
    }
    return new Run(draws, new State(q, step, inverseMass), evaluations);
  }

  /** A chain start with no adapted step size (found at the start) and a unit mass matrix. */
  public static State start(double[] position) {
    double[] ones = new double[position.length];
    Arrays.fill(ones, 1);
    return new State(position, 0, ones);
  }

  private record Transition(double[] q, double logp, double[] gradient, double acceptance) {}

  /** One NUTS iteration from {@code q}: a fresh momentum, a slice, and a doubling trajectory. */
  private Transition transition(
      double[] q0, double logp0, double[] gradient0, double step, double[] inverseMass) {
    double[] r0 = new double[dims];
    for (int i = 0; i < dims; i++) {
      r0[i] = random.nextGaussian() / Math.sqrt(inverseMass[i]);
    }
    double joint0 = logp0 - kinetic(r0, inverseMass);
    // log u, u uniform on (0, exp(joint0)]
    double logSlice = joint0 + Math.log(1 - random.nextDouble());
    Point minus = new Point(q0, r0, gradient0, logp0);
    Point plus = minus;
    double[] q = q0;
    double logp = logp0;
    double[] gradient = gradient0;
    int n = 1;
    double acceptSum = 0;
    int acceptCount = 0;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
      int direction = random.nextBoolean() ? 1 : -1;
      Tree tree =
          direction < 0
              ? build(minus, logSlice, -1, depth, step, joint0, inverseMass)
              : build(plus, logSlice, 1, depth, step, joint0, inverseMass);
      if (direction < 0) {
        minus = tree.minus;
      } else {
        plus = tree.plus;
      }
      acceptSum += tree.acceptSum;
      acceptCount += tree.acceptCount;
      if (!tree.going) {
        break;
      }
      if (tree.n > 0 && random.nextDouble() < (double) tree.n / n) {
        q = tree.proposal.q;
        logp = tree.proposal.logp;
        gradient = tree.proposal.gradient;
      }
      n += tree.n;
      if (uTurn(minus, plus, inverseMass)) {
        break;
      }
    }
    return new Transition(q, logp, gradient, acceptCount == 0 ? 0 : acceptSum / acceptCount);
  }

  /** A point of the trajectory: position, momentum, gradient and log density. */
  private record Point(double[] q, double[] r, double[] gradient, double logp) {}

  /** A subtree: its two ends, a proposal drawn uniformly from its slice points, and its count. */
  private record Tree(
      Point minus,
      Point plus,
      Point proposal,
      int n,
      boolean going,
      double acceptSum,
      int acceptCount) {}

  private Tree build(
      Point from,
      double logSlice,
      int direction,
      int depth,
      double step,
      double joint0,
      double[] inverseMass) {
    if (depth == 0) {
      Point p = leapfrog(from, direction * step, inverseMass);
      double joint = p.logp - kinetic(p.r, inverseMass);
      if (Double.isNaN(joint)) {
        joint = Double.NEGATIVE_INFINITY;
      }
      int n = logSlice <= joint ? 1 : 0;
      boolean going = logSlice < MAX_ENERGY_ERROR + joint;
      double accept = Math.min(1, Math.exp(joint - joint0));
      return new Tree(p, p, p, n, going, Double.isNaN(accept) ? 0 : accept, 1);
    }
    Tree first = build(from, logSlice, direction, depth - 1, step, joint0, inverseMass);
    if (!first.going) {
      return first;
    }
    Tree second =
        build(
            direction < 0 ? first.minus : first.plus,
            logSlice,
            direction,
            depth - 1,
            step,
            joint0,
            inverseMass);
    Point minus = direction < 0 ? second.minus : first.minus;
    Point plus = direction < 0 ? first.plus : second.plus;
    int n = first.n + second.n;
    Point proposal = first.proposal;
    if (second.n > 0 && random.nextDouble() < (double) second.n / n) {
      proposal = second.proposal;
    }
    boolean going = second.going && !uTurn(minus, plus, inverseMass);
    return new Tree(
        minus,
        plus,
        proposal,
        n,
        going,
        first.acceptSum + second.acceptSum,
        first.acceptCount + second.acceptCount);
  }

  /** True when the trajectory's ends move towards each other (in the mass matrix's metric). */
  private static boolean uTurn(Point minus, Point plus, double[] inverseMass) {
    double forward = 0;
    double backward = 0;
    for (int i = 0; i < minus.q.length; i++) {
      double span = plus.q[i] - minus.q[i];
      forward += span * plus.r[i] * inverseMass[i];
      backward += span * minus.r[i] * inverseMass[i];
    }
    return forward < 0 || backward < 0;
  }

  private Point leapfrog(Point from, double step, double[] inverseMass) {
    double[] r = from.r.clone();
    double[] q = from.q.clone();
    for (int i = 0; i < dims; i++) {
      r[i] += 0.5 * step * from.gradient[i];
      q[i] += step * inverseMass[i] * r[i];
    }
    double[] gradient = new double[dims];
    double logp = evaluate(q, gradient);
    if (!Double.isFinite(logp)) {
      return new Point(q, r, gradient, Double.NEGATIVE_INFINITY);
    }
    for (int i = 0; i < dims; i++) {
      r[i] += 0.5 * step * gradient[i];
    }
    return new Point(q, r, gradient, logp);
  }

  private double evaluate(double[] q, double[] gradient) {
    evaluations++;
    double v = density.value(q, gradient);
    return Double.isNaN(v) ? Double.NEGATIVE_INFINITY : v;
  }

  private static double kinetic(double[] r, double[] inverseMass) {
    double s = 0;
    for (int i = 0; i < r.length; i++) {
      s += r[i] * r[i] * inverseMass[i];
    }
    return 0.5 * s;
  }

  /**
   * Hoffman and Gelman's heuristic (algorithm 4): double or halve the step until one leapfrog
   * step's acceptance crosses one half.
   */
  private double initialStep(double[] q, double logp, double[] gradient, double[] inverseMass) {
    double step = 0.1;
    Point from = new Point(q, new double[dims], gradient, logp);
    double ratio = stepRatio(from, step, inverseMass);
    int sign = ratio > Math.log(0.5) ? 1 : -1;
    for (int i = 0; i < 50; i++) {
      step = sign > 0 ? step * 2 : step / 2;
      ratio = stepRatio(from, step, inverseMass);
      if (sign * ratio <= sign * Math.log(0.5)) {
        break;
      }
    }
    return step;
  }

  /** The log acceptance ratio of one leapfrog step of size {@code step} with a fresh momentum. */
  private double stepRatio(Point from, double step, double[] inverseMass) {
    double[] r = new double[dims];
    for (int i = 0; i < dims; i++) {
      r[i] = random.nextGaussian() / Math.sqrt(inverseMass[i]);
    }
    Point start = new Point(from.q, r, from.gradient, from.logp);
    Point end = leapfrog(start, step, inverseMass);
    double ratio = end.logp - kinetic(end.r, inverseMass) - (start.logp - kinetic(r, inverseMass));
    return Double.isNaN(ratio) ? Double.NEGATIVE_INFINITY : ratio;
  }

  /** Nesterov dual averaging of the log step size (Hoffman and Gelman, algorithm 5). */
  private static final class DualAveraging {
    private static final double GAMMA = 0.05;
    private static final double T0 = 10;
    private static final double KAPPA = 0.75;
    private final double mu;
    private double logStep;
    private double logStepAverage;
    private double errorAverage;
    private int t;

    DualAveraging(double step) {
      this.mu = Math.log(10 * step);
      this.logStep = Math.log(step);
      this.logStepAverage = 0;
    }

    double step() {
      return Math.exp(logStep);
    }

    double finalStep() {
      return Math.exp(logStepAverage);
    }

    void update(double acceptance) {
      t++;
      double w = 1.0 / (t + T0);
      errorAverage = (1 - w) * errorAverage + w * (TARGET_ACCEPT - acceptance);
      logStep = mu - Math.sqrt(t) / GAMMA * errorAverage;
      double eta = Math.pow(t, -KAPPA);
      logStepAverage = eta * logStep + (1 - eta) * logStepAverage;
    }
  }

  /** A running mean and variance per coordinate (Welford's algorithm). */
  private static final class Welford {
    private final double[] mean;
    private final double[] m2;
    private int count;

    Welford(int dims) {
      mean = new double[dims];
      m2 = new double[dims];
    }

    int count() {
      return count;
    }

    void add(double[] x) {
      count++;
      for (int i = 0; i < x.length; i++) {
        double delta = x[i] - mean[i];
        mean[i] += delta / count;
        m2[i] += delta * (x[i] - mean[i]);
      }
    }

    /** The sample variance shrunk towards 1e-3, as Stan's windowed adaptation regularizes it. */
    double[] regularizedVariance() {
      double[] out = new double[mean.length];
      for (int i = 0; i < out.length; i++) {
        double variance = m2[i] / (count - 1);
        out[i] = count / (count + 5.0) * variance + 1e-3 * 5.0 / (count + 5.0);
      }
      return out;
    }
  }
}
