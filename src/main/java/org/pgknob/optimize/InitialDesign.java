package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.pgknob.optimize.sampling.ScrambledSobol;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.UnitCubeEncoder;

/**
 * The points a model-based optimizer tries before it trusts its model. Without anchors, a scrambled
 * Sobol design over the whole space: nothing is known, so spread out. With anchors (good guesses
 * such as a calculator's configuration or the best values of earlier sweeps): first each anchor not
 * observed yet, in the order given, then a space-filling design in a box of side {@link
 * #LOCAL_SIDE} of each numeric knob's range around the anchors in turn, where a category keeps the
 * anchor's value except in a share {@link #CATEGORY_CHANGE} of points. A blind design spends a
 * third of a 40-trial search on points that ignore what is known; around the anchors the same
 * trials measure how the objective bends near the best known settings.
 */
final class InitialDesign {
  /** The local design's box side, as a share of each numeric knob's unit range. */
  static final double LOCAL_SIDE = 0.25;

  /** The share of local points in which a categorical knob leaves the anchor's value. */
  static final double CATEGORY_CHANGE = 0.2;

  private final UnitCubeEncoder encoder;
  private final List<Configuration> anchors;
  private final List<double[]> anchorPoints;
  private final ScrambledSobol sobol;
  private int drawn;

  InitialDesign(UnitCubeEncoder encoder, List<Configuration> anchors, long seed) {
    this.encoder = encoder;
    this.anchors = new ArrayList<>();
    this.anchorPoints = new ArrayList<>();
    for (Configuration a : anchors) {
      Configuration c = withinSpace(encoder.space(), a);
      double[] point = encoder.encode(c);
      Configuration canonical = encoder.decode(point);
      if (!this.anchors.contains(canonical)) {
        this.anchors.add(canonical);
        this.anchorPoints.add(encoder.encode(canonical));
      }
    }
    this.sobol = new ScrambledSobol(encoder.dimensions(), new Random(seed));
  }

  /** The anchor's values of this space's knobs, each brought into its range. */
  static Configuration withinSpace(SearchSpace space, Configuration anchor) {
    Configuration out = Configuration.empty();
    for (var e : anchor.values().entrySet()) {
      if (space.contains(e.getKey())) {
        try {
          out = out.with(e.getKey(), space.knob(e.getKey()).normalize(e.getValue()));
        } catch (IllegalArgumentException | ClassCastException ignored) {
          // a value this space cannot hold (an enum choice it leaves out): the default stands
        }
      }
    }
    return out;
  }

  /** The anchors, as this space holds them (in range, inactive knobs dropped), distinct. */
  List<Configuration> anchors() {
    return List.copyOf(anchors);
  }

  /** The first anchor the check accepts and the history does not hold, if any. */
  Optional<Configuration> nextAnchor(History history, CandidateCheck check) {
    for (Configuration a : anchors) {
      if (!history.contains(a) && check.feasibleByRule(a)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /** The next point of the design: around the anchors if there are any, else over the cube. */
  double[] nextPoint() {
    double[] u = sobol.next();
    if (anchorPoints.isEmpty()) {
      return u;
    }
    double[] center = anchorPoints.get(drawn++ % anchorPoints.size());
    double[] x = center.clone();
    for (UnitCubeEncoder.Segment s : encoder.segments()) {
      int o = s.offset();
      if (s.width() == 1) {
        x[o] = Math.max(0, Math.min(1, center[o] + (u[o] - 0.5) * LOCAL_SIDE));
      } else if (u[o] < CATEGORY_CHANGE) {
        // the segment's own next coordinate picks the category, uniformly
        int pick = Math.min(s.width() - 1, (int) (u[o + 1] * s.width()));
        for (int d = 0; d < s.width(); d++) {
          x[o + d] = d == pick ? 1 : 0;
        }
      }
    }
    return x;
  }
}
