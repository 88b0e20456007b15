package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.pgknob.optimize.acquisition.TrustRegion;
import org.pgknob.optimize.model.CategoricalBlock;
import org.pgknob.optimize.model.Prediction;
import org.pgknob.optimize.model.Surrogate;
import org.pgknob.space.UnitCubeEncoder;

/**
 * The knobs a search moves, the others held: the unit-cube dimensions of the active knobs, the
 * projection of a point onto them, the model fitted there seen from the whole cube, and the box
 * that holds every other knob at the incumbent's value.
 *
 * <p>A model fitted on the active dimensions alone does not have to learn from a few dozen points
 * that the held ones do nothing, which the diagnosis in README found it cannot; points that differ
 * only in held knobs are replicates to it.
 */
final class ActiveSubspace {
  private final List<UnitCubeEncoder.Segment> segments;
  private final boolean[] activeSegment;
  private final int[] dims;
  private final int[] projectedOffset;
  private final int dimensions;

  ActiveSubspace(UnitCubeEncoder encoder, boolean[] activeSegment) {
    this.segments = encoder.segments();
    this.activeSegment = activeSegment.clone();
    this.dimensions = encoder.dimensions();
    this.projectedOffset = new int[segments.size()];
    List<Integer> kept = new ArrayList<>();
    for (int s = 0; s < segments.size(); s++) {
      UnitCubeEncoder.Segment seg = segments.get(s);
      projectedOffset[s] = activeSegment[s] ? kept.size() : -1;
      if (activeSegment[s]) {
        for (int d = 0; d < seg.width(); d++) {
          kept.add(seg.offset() + d);
        }
      }
    }
    this.dims = kept.stream().mapToInt(Integer::intValue).toArray();
  }

  boolean isActive(int segment) {
    return activeSegment[segment];
  }

  /** The point's coordinates on the active knobs' dimensions. */
  double[] project(double[] x) {
    double[] out = new double[dims.length];
    for (int i = 0; i < dims.length; i++) {
      out[i] = x[dims[i]];
    }
    return out;
  }

  /** The active categorical knobs' one-hot blocks, at their projected offsets. */
  List<CategoricalBlock> blocks() {
    List<CategoricalBlock> out = new ArrayList<>();
    for (int s = 0; s < segments.size(); s++) {
      UnitCubeEncoder.Segment seg = segments.get(s);
      if (activeSegment[s] && !seg.knob().isNumeric()) {
        out.add(new CategoricalBlock(projectedOffset[s], seg.width()));
      }
    }
    return out;
  }

  /**
   * The box in which only the active knobs move: each held dimension pinned to the incumbent's
   * value, each active one spanning [0, 1].
   */
  TrustRegion.Box hold(double[] incumbent) {
    double[] lower = incumbent.clone();
    double[] upper = incumbent.clone();
    for (int d : dims) {
      lower[d] = 0;
      upper[d] = 1;
    }
    return new TrustRegion.Box(incumbent.clone(), lower, upper);
  }

  /** The intersection of two boxes, either of which may be null (the whole cube). */
  static TrustRegion.Box intersect(TrustRegion.Box a, TrustRegion.Box b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    double[] lower = new double[a.lower().length];
    double[] upper = new double[lower.length];
    for (int d = 0; d < lower.length; d++) {
      lower[d] = Math.max(a.lower()[d], b.lower()[d]);
      upper[d] = Math.max(lower[d], Math.min(a.upper()[d], b.upper()[d]));
    }
    return new TrustRegion.Box(a.center(), lower, upper);
  }

  /** The model fitted on the projected points, predicting at points of the whole cube. */
  Surrogate lift(Surrogate projected) {
    return new Surrogate() {
      @Override
      public Prediction predict(double[] x) {
        return projected.predict(project(x));
      }

      @Override
      public double mean(double[] x) {
        return projected.mean(project(x));
      }

      @Override
      public Optional<Prediction> optimistic(double[] x) {
        return projected.optimistic(project(x));
      }

      @Override
      public Prediction difference(double[] a, double[] b) {
        return projected.difference(project(a), project(b));
      }

      @Override
      public Prediction[] predictEach(double[] x) {
        return projected.predictEach(project(x));
      }

      @Override
      public Optional<Prediction[]> optimisticEach(double[] x) {
        return projected.optimisticEach(project(x));
      }

      @Override
      public double relevance(int offset, int width) {
        for (int s = 0; s < segments.size(); s++) {
          if (segments.get(s).offset() == offset) {
            return activeSegment[s] ? projected.relevance(projectedOffset[s], width) : 0;
          }
        }
        return 0;
      }
    };
  }

  /** The active knobs' names, in the space's order. */
  List<String> activeKnobs() {
    List<String> out = new ArrayList<>();
    for (int s = 0; s < segments.size(); s++) {
      if (activeSegment[s]) {
        out.add(segments.get(s).knob().name());
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "active "
        + activeKnobs()
        + " of "
        + segments.size()
        + " knobs, "
        + dims.length
        + " of "
        + dimensions
        + " dimensions; "
        + Arrays.toString(dims);
  }
}
