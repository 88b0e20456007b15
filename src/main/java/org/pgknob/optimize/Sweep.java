package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;

/**
 * One-at-a-time sweeps: the baseline (the empty configuration, every knob at its default) first,
 * then for each knob in the plan's order its {@linkplain SweepGrid grid} values (or the plan's own
 * values for it) with every other knob at the baseline. A knob whose condition does not hold at the
 * baseline (io_workers while io_method is sync) is swept with its parent set to the first value
 * that activates it.
 *
 * <p>Points the known constraint refuses, or already observed (unless repeats are allowed), are
 * skipped. The sweep is finite: once every point is suggested it {@linkplain #isExhausted() is
 * exhausted}. {@link #analysis(double)} turns the observations into curves and a ranking.
 */
public final class Sweep implements Optimizer {
  private final OptimizerSpec spec;
  private final History history;
  private final CandidateCheck check;
  private final List<Configuration> points;
  private final Set<Configuration> suggested = new LinkedHashSet<>();
  private int next;

  public Sweep(OptimizerSpec spec, SweepPlan plan) {
    this.spec = spec;
    this.history = new History(spec.space());
    this.check = new CandidateCheck(spec, history);
    this.points = points(spec.space(), plan);
  }

  /** The points of a sweep, in order: the baseline, then knob by knob. */
  public static List<Configuration> points(SearchSpace space, SweepPlan plan) {
    List<Configuration> out = new ArrayList<>();
    out.add(Configuration.empty());
    for (String name : knobOrder(space, plan)) {
      Knob knob = space.knob(name);
      Configuration base = activating(space, knob);
      for (Object value : plan.values(knob)) {
        if (value.equals(knob.defaultValue()) && base.isEmpty()) {
          continue; // the baseline itself
        }
        out.add(base.with(name, value));
      }
    }
    return out;
  }

  /** The knobs of the plan: its priority list first, then the rest in the space's order. */
  public static List<String> knobOrder(SearchSpace space, SweepPlan plan) {
    Set<String> order = new LinkedHashSet<>();
    for (String name : plan.priority()) {
      space.knob(name); // fails with the space's knob list when unknown
      order.add(name);
    }
    order.addAll(space.names());
    List<String> out = new ArrayList<>(order);
    return plan.maxKnobs() > 0 && plan.maxKnobs() < out.size()
        ? out.subList(0, plan.maxKnobs())
        : out;
  }

  private static Configuration activating(SearchSpace space, Knob knob) {
    if (knob.condition() == null || space.isActive(knob.name(), Configuration.empty())) {
      return Configuration.empty();
    }
    return Configuration.empty().with(knob.condition().knob(), knob.condition().values().get(0));
  }

  @Override
  public Configuration suggest() {
    while (next < points.size()) {
      Configuration c = points.get(next++);
      if (check.accepts(c) && suggested.add(History.effective(spec.space(), c))) {
        return c;
      }
    }
    throw new IllegalStateException("the sweep is exhausted after " + points.size() + " points");
  }

  @Override
  public boolean isExhausted() {
    for (int i = next; i < points.size(); i++) {
      Configuration c = points.get(i);
      if (check.accepts(c) && !suggested.contains(History.effective(spec.space(), c))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void observe(Configuration configuration, Outcome outcome) {
    history.add(configuration, outcome);
  }

  @Override
  public String name() {
    return "sweep";
  }

  /** Every point of the sweep, baseline first, whether or not it was suggested yet. */
  public List<Configuration> points() {
    return List.copyOf(points);
  }

  /** The best mean observed value so far. */
  public java.util.Optional<Incumbent> incumbent() {
    return history.bestObserved(spec.objective());
  }

  /**
   * Curves and sensitivity ranking from every observation made so far.
   *
   * @param noiseCv the noise level as a coefficient of variation of the objective (e.g. of repeated
   *     baselines: 0.02 for 2%); NaN when unknown, then measured from repeated baseline
   *     observations if there are any
   */
  public SweepAnalysis analysis(double noiseCv) {
    return SweepAnalysis.of(spec.space(), spec.objective(), history.all(), noiseCv);
  }
}
