package org.pgknob.report;

import com.fasterxml.jackson.annotation.JsonInclude;
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

  /** The same chart with other axes (see {@link AxisFit}). */
  public ChartModel withAxes(Axis newX, Axis newY) {
    return new ChartModel(id, title, caption, newX, newY, series, bands, markers);
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

  /**
   * One data point, with an error bar when {@code low} and {@code high} are set (a sweep point's
   * 95% range from its repeats, or from the pooled noise when it ran once).
   */
  public record Point(
      double x,
      double y,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double low,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double high) {
    public Point(double x, double y) {
      this(x, y, null, null);
    }

    public boolean hasErrorBar() {
      return low != null && high != null;
    }
  }

  /** A horizontal band from {@code low} to {@code high} on the y axis. */
  public record Band(String label, double low, double high) {}

  /**
   * A vertical line at {@code x}, or a range to {@code xEnd} when it is not null.
   *
   * @param colour a {@link Palette} key to shade a range in (a phase), or null for the marker
   *     colours
   */
  public record Marker(
      String label,
      double x,
      Double xEnd,
      @JsonInclude(JsonInclude.Include.NON_NULL) String colour) {
    public Marker(String label, double x, Double xEnd) {
      this(label, x, xEnd, null);
    }
  }
}
