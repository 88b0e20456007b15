package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/**
 * A screening design that measures each knob's effect directly before any model is fitted, and the
 * knobs it found active: the Bayesian search then runs on those alone, the others held at the
 * incumbent's values (see {@link ActiveSubspace}).
 *
 * <p>Why: among many inert knobs a Gaussian process fitted to 10 to 20 space-filling points does
 * not find which inputs matter (the optimizer diagnosis in README: Levy's relevant inputs ranked
 * first in 0 of 8 fits below 20 observations), while a point that moves one knob measures that
 * knob's effect in one trial, as a session's sweeps do.
 *
 * <p>The design, Morris's elementary effects (1991) in their radial form (Campolongo et al. 2011):
 * a base point (the first anchor, else a random point in the middle half of each numeric range),
 * then, up to {@link #ONE_AT_A_TIME_UP_TO} knobs, one point per knob with that knob alone moved to
 * the far end of its range (a categorical knob to another level); above, the knobs in random pairs
 * moved together (group screening), and each pair that moved the objective split by moving its
 * first knob alone, the second's effect being the pair's less the first's. A 20-knob space is
 * screened in 11 trials plus one per pair that moved. All effects share the base, so the base's own
 * noise shifts them all alike: an effect is judged by its distance from the median effect, against
 * the noise estimated from their spread (1.4826 x the median absolute deviation, which holds while
 * most moves change nothing), beyond {@link #THRESHOLD} noise standard deviations. A move that
 * fails to run is an effect. A conditional knob inactive at the base is not moved; it is active
 * when the knob it depends on is.
 *
 * <p>The set grows: every {@link #PROBE_EVERY}-th trial after the screening re-tests one held knob
 * (highest screened effect first) by moving it alone from the incumbent; a probe whose value
 * differs from the incumbent's by more than the noise adds the knob. A probe of an inert knob is,
 * to the model, a replicate of the incumbent.
 *
 * <p>Everything here is a function of the seed and the history, so a resumed optimizer that is told
 * the same observations makes the same choices.
 */
final class Screening {
  /**
   * When the screening replaces the initial design: from {@code fromKnobs} knobs up; {@code hold}
   * false keeps every knob in the model and the search (the screening is then only the initial
   * design: one-knob differences for the model's length scales instead of space-filling points).
   */
  record Policy(int fromKnobs, boolean hold) {
    /** No screening: the space-filling initial design. */
    static final Policy NONE = new Policy(Integer.MAX_VALUE, true);

    /**
     * From 10 knobs up: below, the default initial design is 7 points or fewer, and a one-knob-at-
     * a-time screening would cost more than the model needs to rank a few inputs.
     */
    static final Policy DEFAULT = new Policy(10, true);

    /** As {@link #DEFAULT}, nothing held. */
    static final Policy DESIGN_ONLY = new Policy(10, false);

    boolean appliesTo(int knobs) {
      return knobs >= fromKnobs;
    }
  }

  /** Up to this many knobs each is moved alone; above, in pairs. */
  static final int ONE_AT_A_TIME_UP_TO = 15;

  /**
   * An effect beyond this many noise standard deviations counts. Low, because the two errors cost
   * differently: a relevant knob judged inert is held at whatever value the incumbent has until a
   * probe finds it, an inert knob judged active costs the model one dimension. In a simulation of
   * this design on the benchmark's functions (noise 3% of the range, 200 bases each), 2 instead of
   * 3 found 2.6 instead of 1.7 of Hartmann-6's 6 inputs among 20 (one knob at a time) and 2.8
   * instead of 2.5 of Ackley's 5 among 15, for 0.2 to 0.4 inert knobs more.
   */
  static final double THRESHOLD = 2;

  /** At least this many knobs stay active (the largest effects) when fewer pass the threshold. */
  static final int MIN_ACTIVE = 2;

  /** Base points tried before the screening gives up (a base that fails to run is replaced). */
  static final int MAX_BASES = 3;

  /** A held knob is probed every this many trials after the screening. */
  static final int PROBE_EVERY = 6;

  private final UnitCubeEncoder encoder;
  private final SearchSpace space;
  private final Objective objective;
  private final List<UnitCubeEncoder.Segment> segments;
  private final List<Plan> plans = new ArrayList<>();

  Screening(UnitCubeEncoder encoder, Objective objective, List<Configuration> anchors, long seed) {
    this.encoder = encoder;
    this.space = encoder.space();
    this.objective = objective;
    this.segments = encoder.segments();
    Random random = new Random(seed * 1_000_033L + 17);
    List<double[]> bases = new ArrayList<>();
    for (Configuration a : anchors) {
      bases.add(encoder.encode(a));
    }
    while (bases.size() < MAX_BASES + anchors.size()) {
      bases.add(centralPoint(random));
    }
    for (int b = 0; b < bases.size(); b++) {
      plans.add(plan(bases.get(b), new Random(seed * 31 + b)));
    }
  }

  /**
   * Where the screening stands after {@code history}: the next point to run, or the knobs found
   * active.
   *
   * @param active per segment of the encoder, whether the search moves the knob
   * @param score per segment, the largest effect measured on the knob over the noise (infinite for
   *     a failure, 0 where not measured)
   * @param noiseSd the observation noise estimated from the effects' spread, in the objective's
   *     units
   * @param probes held segments to probe now, in order (empty unless a probe is due)
   */
  record State(
      Optional<Configuration> next,
      boolean[] active,
      double[] score,
      double noiseSd,
      List<Integer> probes) {
    static State suggesting(Configuration c) {
      return new State(Optional.of(c), null, null, Double.NaN, List.of());
    }

    boolean done() {
      return next.isEmpty();
    }
  }

  /** The state after {@code history}; {@code check} says which points may still be suggested. */
  State state(History history, CandidateCheck check) {
    Map<Configuration, Measure> seen = measures(history);
    Set<Configuration> planned = new HashSet<>();
    for (Plan p : plans) {
      Configuration base = effective(p.base());
      planned.add(base);
      Measure m = seen.get(base);
      if (m == null) {
        if (check.accepts(p.base())) {
          return State.suggesting(p.base());
        }
        continue;
      }
      if (m.failed()) {
        continue;
      }
      return evaluate(p, m.value(), seen, check, planned, history);
    }
    boolean[] all = new boolean[segments.size()];
    Arrays.fill(all, true);
    return new State(Optional.empty(), all, new double[all.length], Double.NaN, List.of());
  }

  /** The incumbent (a unit-cube point) with the segment moved as the screening moves it. */
  Configuration probe(double[] incumbent, int segment) {
    double[] x = incumbent.clone();
    move(x, segments.get(segment), null);
    return encoder.decode(x);
  }

  private State evaluate(
      Plan p,
      double baseValue,
      Map<Configuration, Measure> seen,
      CandidateCheck check,
      Set<Configuration> planned,
      History history) {
    int groups = p.groups().size();
    Measure[] group = new Measure[groups];
    for (int i = 0; i < groups; i++) {
      Configuration c = p.groupConfigs().get(i);
      planned.add(effective(c));
      group[i] = seen.get(effective(c));
      if (group[i] == null) {
        if (check.accepts(c)) {
          return State.suggesting(c);
        }
        group[i] = Measure.UNMEASURED;
      }
    }
    List<Double> effects = new ArrayList<>();
    for (Measure m : group) {
      if (m.ran()) {
        effects.add(m.value() - baseValue);
      }
    }
    boolean[] active = new boolean[segments.size()];
    double[] score = new double[segments.size()];
    if (effects.size() < 3) {
      // too few effects to tell noise from signal: search every knob
      Arrays.fill(active, true);
      return new State(Optional.empty(), active, score, Double.NaN, List.of());
    }
    double center = median(effects);
    List<Double> deviations = new ArrayList<>();
    for (double e : effects) {
      deviations.add(Math.abs(e - center));
    }
    double sd = 1.4826 * median(deviations);
    for (int i = 0; i < groups; i++) {
      int[] members = p.groups().get(i);
      double groupScore = over(group[i], group[i].value() - baseValue - center, sd);
      boolean moved = groupScore > THRESHOLD;
      if (members.length == 1 || !moved) {
        for (int s : members) {
          score[s] = groupScore;
          active[s] = moved;
        }
        continue;
      }
      Configuration firstAlone = p.firstAlone().get(i);
      planned.add(effective(firstAlone));
      Measure first = seen.get(effective(firstAlone));
      if (first == null) {
        if (check.accepts(firstAlone)) {
          return State.suggesting(firstAlone);
        }
        first = Measure.UNMEASURED;
      }
      score[members[0]] = over(first, first.value() - baseValue - center, sd);
      active[members[0]] = score[members[0]] > THRESHOLD;
      // the second knob's effect: the pair's run less the first's, two runs' noise
      score[members[1]] =
          group[i].ran() && first.ran()
              ? over(group[i], group[i].value() - first.value(), sd * Math.sqrt(2))
              : Double.POSITIVE_INFINITY;
      active[members[1]] = score[members[1]] > THRESHOLD;
    }
    for (int s : p.unmoved()) {
      Knob k = segments.get(s).knob();
      active[s] = active[segmentOf(k.condition().knob())];
    }
    keepLargest(active, score);
    grow(active, score, sd, planned, history);
    return new State(
        Optional.empty(), active, score, sd, probesDue(active, score, planned, history));
  }

  /**
   * Adds each held knob whose probe (an observation after the screening that differs from an
   * earlier successful one in that knob alone) failed or moved the objective by more than the noise
   * of two runs allows.
   */
  private void grow(
      boolean[] active, double[] score, double sd, Set<Configuration> planned, History history) {
    List<Observation> all = history.all();
    List<Configuration> configs = new ArrayList<>();
    for (Observation o : all) {
      configs.add(effective(o.configuration()));
    }
    for (int q = 0; q < all.size(); q++) {
      if (planned.contains(configs.get(q))) {
        continue;
      }
      for (int p = 0; p < q; p++) {
        if (all.get(p).outcome().value(objective.metric()).isEmpty()) {
          continue;
        }
        int differs = onlyDifference(configs.get(p), configs.get(q));
        if (differs < 0 || active[differs]) {
          continue;
        }
        var value = all.get(q).outcome().value(objective.metric());
        double probeScore =
            value.isEmpty()
                ? Double.POSITIVE_INFINITY
                : over(
                    Measure.of(value.getAsDouble()),
                    value.getAsDouble()
                        - all.get(p).outcome().value(objective.metric()).getAsDouble(),
                    sd * Math.sqrt(2));
        if (probeScore > THRESHOLD) {
          active[differs] = true;
          score[differs] = Math.max(score[differs], probeScore);
        }
      }
    }
  }

  /**
   * The held knobs not probed yet, largest screened effect first, when a probe is due: every {@link
   * #PROBE_EVERY}-th observation after the screening's own.
   */
  private List<Integer> probesDue(
      boolean[] active, double[] score, Set<Configuration> planned, History history) {
    List<Configuration> after = new ArrayList<>();
    for (Observation o : history.all()) {
      Configuration c = effective(o.configuration());
      if (!planned.contains(c)) {
        after.add(c);
      }
    }
    if (after.isEmpty() || after.size() % PROBE_EVERY != 0) {
      return List.of();
    }
    boolean[] probed = new boolean[segments.size()];
    List<Configuration> all = new ArrayList<>();
    for (Observation o : history.all()) {
      all.add(effective(o.configuration()));
    }
    for (Configuration q : after) {
      for (Configuration p : all) {
        int differs = onlyDifference(p, q);
        if (differs >= 0) {
          probed[differs] = true;
        }
      }
    }
    List<Integer> out = new ArrayList<>();
    for (int s = 0; s < segments.size(); s++) {
      if (!active[s] && !probed[s]) {
        out.add(s);
      }
    }
    out.sort((a, b) -> Double.compare(score[b], score[a]));
    return out;
  }

  /** The one segment in which two effective configurations differ, or -1. */
  private int onlyDifference(Configuration a, Configuration b) {
    int found = -1;
    for (int s = 0; s < segments.size(); s++) {
      String name = segments.get(s).knob().name();
      if (!Objects.equals(a.values().get(name), b.values().get(name))) {
        if (found >= 0) {
          return -1;
        }
        found = s;
      }
    }
    return found;
  }

  /** Keeps the {@link #MIN_ACTIVE} largest effects active when fewer passed the threshold. */
  private static void keepLargest(boolean[] active, double[] score) {
    int count = 0;
    for (boolean a : active) {
      count += a ? 1 : 0;
    }
    List<Integer> order = new ArrayList<>();
    for (int s = 0; s < active.length; s++) {
      order.add(s);
    }
    order.sort((a, b) -> Double.compare(score[b], score[a]));
    for (int s : order) {
      if (count >= Math.min(MIN_ACTIVE, active.length)) {
        break;
      }
      if (!active[s]) {
        active[s] = true;
        count++;
      }
    }
  }

  /** An effect's size over the noise: infinite for a failure or a point that could not run. */
  private static double over(Measure m, double effect, double sd) {
    if (!m.ran()) {
      return Double.POSITIVE_INFINITY;
    }
    double size = Math.abs(effect);
    if (sd > 0) {
      return size / sd;
    }
    return size > 0 ? Double.POSITIVE_INFINITY : 0;
  }

  private int segmentOf(String knob) {
    for (int s = 0; s < segments.size(); s++) {
      if (segments.get(s).knob().name().equals(knob)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no knob " + knob);
  }

  /**
   * The points around one base: groups of segments moved together, in a random order; a conditional
   * knob inactive at the base is left out (moving it would change nothing).
   *
   * @param unmoved segments not moved, judged by the knob their condition names
   */
  private record Plan(
      Configuration base,
      List<int[]> groups,
      List<Configuration> groupConfigs,
      List<Configuration> firstAlone,
      List<Integer> unmoved) {}

  private Plan plan(double[] basePoint, Random random) {
    Configuration base = encoder.decode(basePoint);
    double[] canonical = encoder.encode(base);
    List<Integer> movable = new ArrayList<>();
    List<Integer> unmoved = new ArrayList<>();
    for (int s = 0; s < segments.size(); s++) {
      Knob k = segments.get(s).knob();
      boolean dependsOnSpaceKnob = k.condition() != null && space.contains(k.condition().knob());
      if (dependsOnSpaceKnob && !base.has(k.name())) {
        unmoved.add(s);
      } else {
        movable.add(s);
      }
    }
    Collections.shuffle(movable, random);
    int size = segments.size() <= ONE_AT_A_TIME_UP_TO ? 1 : 2;
    List<int[]> groups = new ArrayList<>();
    List<Configuration> groupConfigs = new ArrayList<>();
    List<Configuration> firstAlone = new ArrayList<>();
    for (int from = 0; from < movable.size(); from += size) {
      int[] members =
          movable.subList(from, Math.min(movable.size(), from + size)).stream()
              .mapToInt(Integer::intValue)
              .toArray();
      double[] x = canonical.clone();
      double[] first = null;
      for (int m = 0; m < members.length; m++) {
        move(x, segments.get(members[m]), random);
        if (m == 0) {
          first = x.clone();
        }
      }
      groups.add(members);
      groupConfigs.add(encoder.decode(x));
      firstAlone.add(members.length > 1 ? encoder.decode(first) : null);
    }
    return new Plan(base, groups, groupConfigs, firstAlone, unmoved);
  }

  /**
   * Moves one segment of {@code x}: a numeric knob to the far end of its range, a categorical one
   * to another level (a random one, or the next without {@code random}). The far end, not Morris's
   * step of half the range or more: from a base in the middle half, a simulation of one-knob moves
   * on the benchmark's functions (300 bases each) found more of the relevant inputs' effects beyond
   * 3 noise standard deviations: Levy 100% (85% with half the range), Styblinski-Tang 100% (69%),
   * Ackley 50% (64%), Hartmann-6 37% (40%).
   */
  private static void move(double[] x, UnitCubeEncoder.Segment s, Random random) {
    int o = s.offset();
    if (s.knob().isNumeric()) {
      x[o] = x[o] < 0.5 ? 1 : 0;
      return;
    }
    int current = 0;
    for (int d = 1; d < s.width(); d++) {
      if (x[o + d] > x[o + current]) {
        current = d;
      }
    }
    int shift = random == null ? 1 : 1 + random.nextInt(s.width() - 1);
    int next = (current + shift) % s.width();
    for (int d = 0; d < s.width(); d++) {
      x[o + d] = d == next ? 1 : 0;
    }
  }

  /** A random point in the middle half of each numeric range, categories at random levels. */
  private double[] centralPoint(Random random) {
    double[] x = new double[encoder.dimensions()];
    for (UnitCubeEncoder.Segment s : segments) {
      if (s.knob().isNumeric()) {
        x[s.offset()] = 0.25 + 0.5 * random.nextDouble();
      } else {
        x[s.offset() + random.nextInt(s.width())] = 1;
      }
    }
    return x;
  }

  private Configuration effective(Configuration c) {
    return History.effective(space, c);
  }

  /** What the history says of one configuration: its mean value, failed, or not run. */
  private record Measure(double value, boolean ran) {
    static final Measure UNMEASURED = new Measure(Double.NaN, false);

    static Measure of(double value) {
      return new Measure(value, true);
    }

    boolean failed() {
      return !ran;
    }
  }

  /**
   * Each configuration's mean value over its successful runs; a configuration that never ran
   * successfully counts as failed.
   */
  private Map<Configuration, Measure> measures(History history) {
    Map<Configuration, double[]> sums = new HashMap<>();
    for (Observation o : history.all()) {
      double[] s = sums.computeIfAbsent(effective(o.configuration()), k -> new double[2]);
      var v = o.outcome().value(objective.metric());
      if (v.isPresent()) {
        s[0] += v.getAsDouble();
        s[1]++;
      }
    }
    Map<Configuration, Measure> out = new HashMap<>();
    for (var e : sums.entrySet()) {
      double[] s = e.getValue();
      out.put(e.getKey(), s[1] > 0 ? Measure.of(s[0] / s[1]) : Measure.UNMEASURED);
    }
    return out;
  }

  private static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    Collections.sort(v);
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }
}
