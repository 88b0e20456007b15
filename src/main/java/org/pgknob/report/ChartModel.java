package org.pgknob.report;

import java.util.List;

/**
 * The data behind one x/y chart of the report, independent of how it is drawn: what the golden
 * tests compare, and what {@link ChartRenderer} turns into a PNG.
 *
 * @param id stable name, also the PNG's file name under charts/ (without .png)
 * @param title the chart's title
 * @param caption one sentence under the chart saying how to read it
 * @param x the horizontal axis
 * @param y the vertical axis
 * @param series the lines and point sets, drawn in this order
 * @param bands horizontal bands across the chart (the baseline's noise)
 * @param markers vertical lines or ranges (checkpoints, guardrail trips, failed values)
 */
public record ChartModel(
    String id,
    String title,
    String caption,
    Axis x,
    Axis y,
    List<Series> series,
    List<Band> bands,
    List<Marker> markers) {

  public ChartModel {
    series = List.copyOf(series);
    bands = List.copyOf(bands);
    markers = List.copyOf(markers);
  }

  /** True when there is at least one point to draw. */
  public boolean hasPoints() {
    return series.stream().anyMatch(s -> !s.points().isEmpty());
  }

  /**
   * An axis.
   *
   * @param label name and unit, e.g. "shared_buffers (MB)"
   * @param log logarithmic scale
   * @param categories when not empty, x values are indexes into these names (enum knobs)
   * @param min fixed lower end, or null to fit the data
   * @param max fixed upper end, or null to fit the data
   */
  public record Axis(String label, boolean log, List<String> categories, Double min, Double max) {
    public Axis {
      categories = categories == null ? List.of() : List.copyOf(categories);
    }

    public static Axis linear(String label) {
      return new Axis(label, false, List.of(), null, null);
    }
  }

  /** How a series is drawn. */
  public enum Style {
    /** Points joined by lines, in x order. */
    LINE,
    /** Points only. */
    POINTS,
    /** A staircase: the value holds until the next point (best-so-far). */
    STEP
  }

  /**
   * A named set of points.
   *
   * @param name the legend's text
   * @param colour a {@link Palette} key: a track, phase or metric name, so colours agree across
   *     charts
   * @param style how it is drawn
   * @param points the data, in drawing order
   */
  public record Series(String name, String colour, Style style, List<Point> points) {
    public Series {
      points = List.copyOf(points);
    }
  }

  /** One data point. */
  public record Point(double x, double y) {}

  /** A horizontal band from {@code low} to {@code high} on the y axis. */
  public record Band(String label, double low, double high) {}

  /** A vertical line at {@code x}, or a range to {@code xEnd} when it is not null. */
  public record Marker(String label, double x, Double xEnd) {}
}
