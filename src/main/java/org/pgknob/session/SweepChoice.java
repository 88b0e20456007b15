package org.pgknob.session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.pgknob.optimize.SweepGrid;
import org.pgknob.runs.Track;
import org.pgknob.space.BoundSpace;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;

/**
 * Which knobs a session sweeps one at a time, within the sweep share of its budget.
 *
 * <p>The order is the search-space file's {@code sweep:} rank per knob: for the bundled file an
 * expert prior for OLTP write workloads such as TPROC-C (the buffer cache first, then what shapes
 * checkpoints and WAL, then commit grouping and background writing, then the planner and I/O knobs
 * that matter less when the database is cached). Each knob's values are its sweep grid without the
 * default (the baseline runs already measure it); a knob whose values do not all fit is swept on an
 * evenly thinned grid, and the sweeps stop when the share is spent.
 */
final class SweepChoice {
  /**
   * The knobs a session sweeps, in order: those the search-space file ranks ({@code sweep: N}),
   * lowest rank first.
   */
  static List<String> priority(SearchSpace space) {
    return space.knobs().stream()
        .filter(k -> k.sweepRank() > 0)
        .sorted(Comparator.comparingInt(Knob::sweepRank))
        .map(Knob::name)
        .toList();
  }

  /** At least this many values make a curve worth drawing. */
  static final int MIN_VALUES = 3;

  private SweepChoice() {}

  static List<SessionPlan.SweepKnob> choose(
      SearchSpace space, BoundSpace bound, List<Track> tracks, int sweepTrials) {
    List<SessionPlan.SweepKnob> out = new ArrayList<>();
    int left = sweepTrials;
    for (String name : priority(space)) {
      if (!space.contains(name) || left < MIN_VALUES) {
        continue;
      }
      boolean restart = bound.needsRestart(name);
      if (restart && !tracks.contains(Track.RESTART)) {
        continue;
      }
      Knob knob = space.knob(name);
      if (knob.condition() != null) {
        continue; // its value means nothing at the parent's default
      }
      List<Object> values = new ArrayList<>();
      for (Object v : SweepGrid.values(knob)) {
        if (!Objects.equals(knob.normalize(v), defaultOf(knob))) {
          values.add(v);
        }
      }
      if (values.size() > left) {
        values = thinned(values, left);
      }
      if (values.size() < MIN_VALUES && values.size() < SweepGrid.values(knob).size() - 1) {
        continue;
      }
      out.add(new SessionPlan.SweepKnob(name, Track.applying(restart), knob.unit(), values));
      left -= values.size();
    }
    return out;
  }

  private static Object defaultOf(Knob knob) {
    Object d = knob.defaultValue();
    if (d == null) {
      return null;
    }
    try {
      return knob.normalize(d);
    } catch (IllegalArgumentException e) {
      return d;
    }
  }

  /** {@code n} values spread evenly over the list, keeping both ends. */
  static List<Object> thinned(List<Object> values, int n) {
    List<Object> out = new ArrayList<>();
    if (n <= 1) {
      out.add(values.get(values.size() - 1));
      return out;
    }
    for (int i = 0; i < n; i++) {
      int idx = (int) Math.round(i * (values.size() - 1) / (double) (n - 1));
      if (!out.contains(values.get(idx))) {
        out.add(values.get(idx));
      }
    }
    return out;
  }
}
