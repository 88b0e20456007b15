package org.pgknob.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Gives every chart axis an explicit range that holds all it must show: the points with their error
 * bars, the noise band, the markers. A range never collapses to one value: a session whose trials
 * all measured the same gets a range around that value wide enough for distinct tick labels (left
 * to JFreeChart, it draws an axis of twenty identical labels).
 */
final class AxisFit {
  /** A linear range spans at least this share of its middle value ... */
  static final double MIN_RELATIVE_SPAN = 0.05;

  /** ... and at least this much (three decimals, as the tick labels print). */
  static final double MIN_ABSOLUTE_SPAN = 0.01;

  /** Trial numbers and seconds: at least two whole units. */
  static final double MIN_WHOLE_SPAN = 2;

  /** A log axis spans at least a factor of 4, two of its base-2 ticks. */
  static final double MIN_LOG_RATIO = 4;

  private static final double PAD = 0.05;

  private AxisFit() {}

  static ChartModel fit(ChartModel m) {
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    boolean wholeX = true;
    for (ChartModel.Series s : m.series()) {
      for (ChartModel.Point p : s.points()) {
        xs.add(p.x());
        wholeX &= p.x() == Math.rint(p.x());
        ys.add(p.y());
        if (p.hasErrorBar()) {
          ys.add(p.low());
          ys.add(p.high());
        }
      }
    }
    for (ChartModel.Band b : m.bands()) {
      ys.add(b.low());
      ys.add(b.high());
    }
    for (ChartModel.Marker mk : m.markers()) {
      xs.add(mk.x());
      if (mk.xEnd() != null) {
        xs.add(mk.xEnd());
      }
    }
    return m.withAxes(axis(m.x(), xs, wholeX), axis(m.y(), ys, false));
  }

  private static ChartModel.Axis axis(ChartModel.Axis a, List<Double> values, boolean whole) {
    List<Double> finite = values.stream().filter(Double::isFinite).toList();
    if (!a.categories().isEmpty()) {
      double n = a.categories().size();
      return with(a, -0.5, Math.max(n - 0.5, finiteMax(finite, n - 0.5) + 0.25));
    }
    if (finite.isEmpty()) {
      return a.min() != null && a.max() != null && a.max() > a.min()
          ? a
          : with(a, 0.0, 1.0); // nothing to show: a plain 0 to 1 rather than one value
    }
    double lo = finite.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double hi = finite.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    if (a.log()) {
      return logAxis(a, finite);
    }
    if (a.min() != null) {
      lo = Math.min(lo, a.min());
    }
    if (a.max() != null) {
      hi = Math.max(hi, a.max());
    }
    double mid = (lo + hi) / 2;
    double minSpan = Math.max(Math.abs(mid) * MIN_RELATIVE_SPAN, MIN_ABSOLUTE_SPAN);
    if (whole) {
      minSpan = Math.max(minSpan, MIN_WHOLE_SPAN);
    }
    if (hi - lo < minSpan) {
      lo = mid - minSpan / 2;
      hi = mid + minSpan / 2;
    }
    boolean nonNegative = finite.stream().allMatch(v -> v >= 0);
    double pad = (hi - lo) * PAD;
    double min = a.min() != null ? a.min() : lo - pad;
    double max = a.max() != null && a.max() >= hi ? a.max() : hi + pad;
    if (nonNegative && min < 0) {
      min = 0; // no negative TPS or latency on an axis
      max = Math.max(max, minSpan);
    }
    return with(a, Num.r6(min), Num.r6(max));
  }

  private static ChartModel.Axis logAxis(ChartModel.Axis a, List<Double> values) {
    List<Double> positive = values.stream().filter(v -> v > 0).toList();
    if (positive.isEmpty()) {
      return with(a, 1.0, MIN_LOG_RATIO);
    }
    double lo = positive.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double hi = positive.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    if (hi / lo < MIN_LOG_RATIO) {
      double widen = Math.sqrt(MIN_LOG_RATIO / (hi / lo));
      lo /= widen;
      hi *= widen;
    }
    double pad = Math.pow(hi / lo, PAD);
    return with(a, Num.r6(lo / pad), Num.r6(hi * pad));
  }

  private static double finiteMax(List<Double> values, double otherwise) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(otherwise);
  }

  private static ChartModel.Axis with(ChartModel.Axis a, double min, double max) {
    return new ChartModel.Axis(a.label(), a.log(), a.categories(), min, max);
  }
}
