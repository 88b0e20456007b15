package org.pgknob.optimize;

import java.util.List;

/**
 * What one knob's sweep measured: one point per value tried, in ascending (or listed) order. The
 * knob's default is a point too, measured by the baseline.
 */
public record KnobCurve(String knob, List<Point> points) {
  public KnobCurve {
    points = List.copyOf(points);
  }

  /**
   * @param value the knob's value (Long, Double or String)
   * @param isDefault true for the knob's default (the baseline's point)
   * @param meanValue the mean objective value of its successful runs, NaN when none succeeded
   * @param runs runs that gave a value
   * @param failures runs that failed
   * @param failureReason the last failure's reason, or empty
   */
  public record Point(
      Object value,
      boolean isDefault,
      double meanValue,
      int runs,
      int failures,
      String failureReason) {}
}
