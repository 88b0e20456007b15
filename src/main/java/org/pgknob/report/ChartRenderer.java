package org.pgknob.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.LogTick;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.axis.Tick;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * Draws a {@link ChartModel} as a PNG with JFreeChart, headless: title, labelled axes, a legend
 * that also names the noise band and the markers, colours from the {@link Palette}.
 */
public final class ChartRenderer {
  /** Figures of a sweep sit three to a row; the others take the page's width. */
  static final int SMALL_WIDTH = 620;

  static final int SMALL_HEIGHT = 400;
  static final int WIDE_WIDTH = 1100;
  static final int WIDE_HEIGHT = 460;

  private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
  private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
  private static final Font TICK = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
  private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);

  static {
    System.setProperty("java.awt.headless", "true");
    // PNGs are encoded in memory. ImageIO's default disk cache registers a JVM shutdown hook the
    // first time it is used, which throws while the JVM is stopping: the report written on the way
    // out of a session stopped by Ctrl-C or SIGTERM would then have no charts and no page.
    ImageIO.setUseCache(false);
  }

  private ChartRenderer() {}

  public static boolean isSmall(ChartModel model) {
    return model.id().startsWith("sweep-");
  }

  /** The chart as PNG bytes at its size (small for sweep figures, wide otherwise). */
  public static byte[] png(ChartModel model) {
    return render(model).png();
  }

  /**
   * A drawn chart: the PNG and the tick labels JFreeChart put on its axes, so a test (and the
   * page's data attributes) can tell a sane axis from a collapsed one.
   */
  public record Rendered(byte[] png, List<String> xTicks, List<String> yTicks) {
    public Rendered {
      xTicks = List.copyOf(xTicks);
      yTicks = List.copyOf(yTicks);
    }
  }

  /** Draws {@code model} at its size and reads back the tick labels of both axes. */
  public static Rendered render(ChartModel model) {
    boolean small = isSmall(model);
    JFreeChart chart = chart(model);
    ChartRenderingInfo info = new ChartRenderingInfo();
    BufferedImage image =
        chart.createBufferedImage(
            small ? SMALL_WIDTH : WIDE_WIDTH, small ? SMALL_HEIGHT : WIDE_HEIGHT, info);
    Rectangle2D area = info.getPlotInfo().getDataArea();
    XYPlot plot = chart.getXYPlot();
    Graphics2D g2 = image.createGraphics();
    try {
      List<String> x =
          labels(
              plot.getDomainAxis().refreshTicks(g2, new AxisState(), area, RectangleEdge.BOTTOM));
      List<String> y =
          labels(plot.getRangeAxis().refreshTicks(g2, new AxisState(), area, RectangleEdge.LEFT));
      return new Rendered(ChartUtils.encodeAsPNG(image), x, y);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      g2.dispose();
    }
  }

  /** The texts of the labelled ticks (a log axis's minor ticks carry none). */
  private static List<String> labels(List<?> ticks) {
    List<String> out = new ArrayList<>();
    for (Object t : ticks) {
      String text = null;
      if (t instanceof LogTick log && log.getAttributedLabel() != null) {
        StringBuilder sb = new StringBuilder();
        var it = log.getAttributedLabel().getIterator();
        for (char c = it.first(); c != java.text.CharacterIterator.DONE; c = it.next()) {
          sb.append(c);
        }
        text = sb.toString();
      } else if (t instanceof Tick tick) {
        text = tick.getText();
      }
      if (text != null && !text.isEmpty()) {
        out.add(text);
      }
    }
    return out;
  }

  static JFreeChart chart(ChartModel model) {
    XYPlot plot = new XYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
    plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
    plot.setDomainGridlinesVisible(true);
    plot.setRangeGridlinesVisible(true);
    plot.setOutlinePaint(new Color(0xAA, 0xAA, 0xAA));
    plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD); // later series on top
    plot.setDomainAxis(axis(model.x(), true));
    if (plot.getDomainAxis() instanceof NumberAxis n && allWholeX(model)) {
      n.setStandardTickUnits(NumberAxis.createIntegerTickUnits(Locale.ROOT));
    }
    plot.setRangeAxis(axis(model.y(), false));

    LegendItemCollection legend = new LegendItemCollection();
    int index = 0;
    for (ChartModel.Series s : model.series()) {
      if (s.points().isEmpty()) {
        continue;
      }
      XYSeries xy = new XYSeries(s.name(), false, true);
      s.points().forEach(p -> xy.add(p.x(), p.y()));
      plot.setDataset(index, new XYSeriesCollection(xy));
      Color colour = Palette.colour(s.colour());
      XYLineAndShapeRenderer r = renderer(s.style());
      r.setSeriesPaint(0, colour);
      r.setSeriesStroke(0, new BasicStroke(s.style() == ChartModel.Style.STEP ? 2.5f : 2f));
      boolean front = "front".equals(s.colour());
      r.setSeriesShape(
          0, front ? new Ellipse2D.Double(-7, -7, 14, 14) : new Ellipse2D.Double(-3.5, -3.5, 7, 7));
      if (front) {
        r.setSeriesShapesFilled(0, false); // a ring around the member's own dot
      }
      if ("limit".equals(s.colour())) {
        r.setSeriesShapesVisible(0, false); // a level, not measurements
      }
      plot.setRenderer(index, r);
      legend.add(r.getLegendItem(index, 0));
      index++;
      if (s.points().stream().anyMatch(ChartModel.Point::hasErrorBar)) {
        plot.setDataset(index, errorBars(s));
        plot.setRenderer(index, errorRenderer(colour));
        index++;
      }
    }
    for (ChartModel.Band b : model.bands()) {
      if (!(b.high() > b.low())) {
        continue; // no spread: nothing to shade
      }
      IntervalMarker m = new IntervalMarker(b.low(), b.high(), Palette.NOISE);
      plot.addRangeMarker(m, Layer.BACKGROUND);
      legend.add(new LegendItem(b.label(), null, null, null, square(), Palette.NOISE));
    }
    // Ranges are named in the legend (labels on the plot would clip at its edges); events carry
    // their label beside the line as well, because several may share a chart.
    java.util.Set<String> named = new java.util.HashSet<>();
    int ranges = 0;
    for (ChartModel.Marker mk : model.markers()) {
      Marker m;
      java.awt.Paint paint;
      if (mk.xEnd() != null && mk.colour() != null) {
        paint = Palette.shade(mk.colour());
        m = new IntervalMarker(mk.x(), mk.xEnd(), paint);
      } else if (mk.xEnd() != null) {
        paint = Palette.RANGES.get(ranges++ % Palette.RANGES.size());
        m = new IntervalMarker(mk.x(), mk.xEnd(), paint);
      } else {
        paint = Palette.MARKER;
        m = new ValueMarker(mk.x(), Palette.MARKER, new BasicStroke(1.5f));
        m.setLabel(mk.label());
        m.setLabelFont(SMALL);
        m.setLabelPaint(Palette.MARKER);
        m.setLabelBackgroundColor(new Color(255, 255, 255, 200));
        m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        m.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
        m.setLabelOffset(new RectangleInsets(6, 4, 6, 4));
      }
      plot.addDomainMarker(m, Layer.BACKGROUND);
      if (named.add(mk.label())) {
        Shape shape = mk.xEnd() != null ? square() : new Rectangle2D.Double(-1, -6, 2, 12);
        legend.add(new LegendItem(mk.label(), null, null, null, shape, paint));
      }
    }
    plot.setFixedLegendItems(legend);

    JFreeChart chart = new JFreeChart(model.title(), TITLE, plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    chart.setAntiAlias(true);
    chart.setTextAntiAlias(true);
    LegendTitle lt = chart.getLegend();
    lt.setPosition(RectangleEdge.BOTTOM);
    lt.setItemFont(LABEL);
    lt.setFrame(org.jfree.chart.block.BlockBorder.NONE);
    return chart;
  }

  /** Trial numbers and seconds: ticks at whole numbers only. */
  private static boolean allWholeX(ChartModel model) {
    return model.series().stream()
        .flatMap(s -> s.points().stream())
        .allMatch(p -> p.x() == Math.rint(p.x()));
  }

  /** The 95% ranges of a series' points as a dataset of its own, drawn under the points. */
  private static YIntervalSeriesCollection errorBars(ChartModel.Series s) {
    YIntervalSeries bars = new YIntervalSeries(s.name() + " 95% range", false, true);
    for (ChartModel.Point p : s.points()) {
      if (p.hasErrorBar()) {
        bars.add(p.x(), p.y(), p.low(), p.high());
      }
    }
    YIntervalSeriesCollection out = new YIntervalSeriesCollection();
    out.addSeries(bars);
    return out;
  }

  private static XYErrorRenderer errorRenderer(Color colour) {
    XYErrorRenderer r = new XYErrorRenderer();
    r.setDrawXError(false);
    r.setDefaultLinesVisible(false);
    r.setDefaultShapesVisible(false);
    r.setErrorPaint(colour);
    r.setErrorStroke(new BasicStroke(1.5f));
    r.setCapLength(8);
    return r;
  }

  private static Rectangle2D square() {
    return new Rectangle2D.Double(-6, -6, 12, 12);
  }

  private static XYLineAndShapeRenderer renderer(ChartModel.Style style) {
    return switch (style) {
      case STEP -> {
        XYStepRenderer r = new XYStepRenderer();
        r.setDefaultShapesVisible(false);
        yield r;
      }
      case POINTS -> new XYLineAndShapeRenderer(false, true);
      case LINE -> new XYLineAndShapeRenderer(true, true);
    };
  }

  private static ValueAxis axis(ChartModel.Axis a, boolean domain) {
    ValueAxis axis;
    if (!a.categories().isEmpty()) {
      SymbolAxis s = new SymbolAxis(a.label(), a.categories().toArray(new String[0]));
      s.setGridBandsVisible(false);
      axis = s;
    } else if (a.log()) {
      LogAxis log = new LogAxis(a.label());
      log.setBase(2);
      log.setSmallestValue(1e-3);
      log.setNumberFormatOverride(
          new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
      log.setLowerMargin(0.05);
      log.setUpperMargin(0.05);
      axis = log;
    } else {
      NumberAxis n = new NumberAxis(a.label());
      n.setAutoRangeIncludesZero(false);
      n.setNumberFormatOverride(
          new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
      if (domain) {
        n.setLowerMargin(0.03);
        n.setUpperMargin(0.03);
      } else {
        n.setUpperMargin(0.08);
      }
      axis = n;
    }
    if (a.min() != null && a.max() != null && a.max() > a.min()) {
      axis.setRange(a.min(), a.max());
    }
    axis.setLabelFont(LABEL);
    axis.setTickLabelFont(TICK);
    return axis;
  }
}
