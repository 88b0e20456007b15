package org.pgknob.space;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps configurations to points of the unit cube and back, for the optimizers.
 *
 * <p>A numeric knob takes one dimension (log scales in the logarithm; integers rounded on the way
 * back). An enum or bool knob with k choices takes k one-hot dimensions, decoded by the largest:
 * categories stay categories, never ordered numbers. A knob absent from the configuration is
 * encoded at its default, so the baseline has a point too: a special default the server derives
 * from other settings (wal_buffers = -1) at the value it derived when known, else clamped into
 * range. Decoding drops knobs whose condition does not hold.
 */
public final class UnitCubeEncoder {
  private final SearchSpace space;
  private final List<Segment> segments = new ArrayList<>();
  private final int dimensions;

  /** The dimensions one knob occupies: [offset, offset + width). */
  public record Segment(Knob knob, int offset, int width) {}

  public UnitCubeEncoder(SearchSpace space) {
    this.space = space;
    int offset = 0;
    for (Knob k : space.knobs()) {
      int width = k.isNumeric() ? 1 : k.choices().size();
      segments.add(new Segment(k, offset, width));
      offset += width;
    }
    this.dimensions = offset;
  }

  public SearchSpace space() {
    return space;
  }

  public int dimensions() {
    return dimensions;
  }

  public List<Segment> segments() {
    return List.copyOf(segments);
  }

  public double[] encode(Configuration config) {
    double[] x = new double[dimensions];
    for (Segment s : segments) {
      Knob k = s.knob();
      Object v = k.running(config.has(k.name()) ? config.get(k.name()) : k.defaultValue());
      if (k.isNumeric()) {
        x[s.offset()] = v instanceof Number n ? toUnit(k, n.doubleValue()) : 0.5;
      } else {
        int idx = v == null ? 0 : Math.max(0, k.choices().indexOf(v.toString()));
        x[s.offset() + idx] = 1.0;
      }
    }
    return x;
  }

  /**
   * The configuration nearest to {@code x}, setting every active knob of the space but those at the
   * value their default derives.
   */
  public Configuration decode(double[] x) {
    if (x.length != dimensions) {
      throw new IllegalArgumentException(
          "point must have " + dimensions + " dimensions, but got " + x.length);
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (Segment s : segments) {
      Knob k = s.knob();
      if (k.isNumeric()) {
        Object v = k.normalize(fromUnit(k, x[s.offset()]));
        // The derived value stands for the default that derives it: a configuration that left the
        // knob alone (an anchor, the baseline) comes back without it, following its other settings.
        if (!v.equals(k.automaticValue())) {
          values.put(k.name(), v);
        }
      } else {
        int best = 0;
        for (int i = 1; i < s.width(); i++) {
          if (x[s.offset() + i] > x[s.offset() + best]) {
            best = i;
          }
        }
        values.put(k.name(), k.choices().get(best));
      }
    }
    return space.dropInactive(Configuration.of(values));
  }

  /** Position of a numeric value in [0, 1] on the knob's scale, clamped. */
  public static double toUnit(Knob k, double v) {
    double u;
    if (k.max() == k.min()) {
      return 0.5;
    }
    if (k.scale() == Scale.LOG) {
      double lv = Math.log(Math.max(v, k.min()));
      u = (lv - Math.log(k.min())) / (Math.log(k.max()) - Math.log(k.min()));
    } else {
      u = (v - k.min()) / (k.max() - k.min());
    }
    return Math.max(0, Math.min(1, u));
  }

  /** The numeric value at position {@code u} of the knob's scale (not rounded). */
  public static double fromUnit(Knob k, double u) {
    double c = Math.max(0, Math.min(1, u));
    if (k.scale() == Scale.LOG) {
      return Math.exp(Math.log(k.min()) + c * (Math.log(k.max()) - Math.log(k.min())));
    }
    return k.min() + c * (k.max() - k.min());
  }
}
