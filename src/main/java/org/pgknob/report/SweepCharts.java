package org.pgknob.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The seed study's figure set, one per swept knob: its value against TPS, NOPM, latency, CPU,
 * memory and disk, with the baseline's noise band and the values that failed marked.
 */
final class SweepCharts {
  private static final Pattern LABEL = Pattern.compile("sweep\\s+([A-Za-z0-9_.]+)\\s*=");
  private static final Pattern NUMBER = Pattern.compile("^-?[0-9]+(\\.[0-9]+)?(e-?[0-9]+)?");

  /** Knobs whose values span this factor or more get a log axis when the space does not say. */
  static final double LOG_SPAN = 16;

  private record Figure(String suffix, String title, String yLabel, List<Metric> metrics) {}

  private static final List<Figure> FIGURES =
      List.of(
          new Figure("tps", "TPS", "TPS (transactions/s)", List.of(Metric.TPS)),
          new Figure("nopm", "NOPM", "NOPM (new orders/min)", List.of(Metric.NOPM)),
          new Figure(
              "latency",
              "latency",
              "latency (ms)",
              List.of(Metric.LATENCY_AVG, Metric.LATENCY_P95)),
          new Figure(
              "cpu",
              "server CPU",
              "CPU (%, 100 = one core)",
              List.of(Metric.CPU_TOTAL, Metric.CPU_USER, Metric.CPU_SYS)),
          new Figure("memory", "server memory", "memory (MB)", List.of(Metric.RSS, Metric.PSS)),
          new Figure(
              "disk", "disk I/O", "disk (MB/s)", List.of(Metric.DISK_READ, Metric.DISK_WRITE)));

  private static final List<String> COLOURS = List.of("primary", "secondary", "tertiary");

  private SweepCharts() {}

  static List<ReportModel.Sweep> build(SessionData data, Baseline baseline) {
    Map<String, List<TrialResult>> byKnob = new LinkedHashMap<>();
    for (TrialResult t : data.phase(Phase.SWEEP)) {
      sweptKnob(t).ifPresent(k -> byKnob.computeIfAbsent(k, x -> new ArrayList<>()).add(t));
    }
    boolean sampled = data.okTrials().stream().anyMatch(t -> t.resources().available());
    List<ReportModel.Sweep> out = new ArrayList<>();
    byKnob.forEach((knob, trials) -> out.add(sweep(data, baseline, knob, trials, sampled)));
    return out;
  }

  /** The knob a sweep trial varies: its one configured knob, else the one its label names. */
  static Optional<String> sweptKnob(TrialResult t) {
    if (t.config().size() == 1) {
      return Optional.of(t.config().keySet().iterator().next());
    }
    Matcher m = LABEL.matcher(t.label() == null ? "" : t.label());
    if (m.find()) {
      return Optional.of(m.group(1));
    }
    if (t.settings().size() == 1) {
      return Optional.of(t.settings().keySet().iterator().next());
    }
    return Optional.empty();
  }

  private static ReportModel.Sweep sweep(
      SessionData data, Baseline baseline, String knob, List<TrialResult> trials, boolean sampled) {
    String unit = unitOf(knob, trials);
    boolean numeric = trials.stream().allMatch(t -> numericValue(t, knob).isPresent());
    List<String> categories = new ArrayList<>();
    Map<Integer, Double> xByTrial = new LinkedHashMap<>();
    if (numeric) {
      trials.forEach(t -> xByTrial.put(t.trial(), numericValue(t, knob).get()));
    } else {
      for (TrialResult t : trials) {
        String v = rendered(t, knob);
        if (!categories.contains(v)) {
          categories.add(v);
        }
        xByTrial.put(t.trial(), (double) categories.indexOf(v));
      }
    }
    boolean log = numeric && isLog(data.session(), knob, xByTrial.values());
    List<TrialResult> ordered = new ArrayList<>(trials);
    ordered.sort(Comparator.comparingDouble((TrialResult t) -> xByTrial.get(t.trial())));
    List<String> values = new ArrayList<>();
    for (TrialResult t : ordered) {
      String v = rendered(t, knob);
      if (!values.contains(v)) {
        values.add(v);
      }
    }
    String xLabel = unit.isEmpty() ? knob : knob + " (" + unit + ")";
    ChartModel.Axis x = new ChartModel.Axis(xLabel, log, categories, null, null);
    List<ChartModel.Marker> failures = new ArrayList<>();
    for (TrialResult t : ordered) {
      if (!t.isOk()) {
        failures.add(
            new ChartModel.Marker(
                rendered(t, knob) + ": " + t.status(), Num.r(xByTrial.get(t.trial())), null));
      }
    }
    Optional<ChartModel.Marker> defaultMark =
        defaultValue(data.session(), knob, unit, numeric, categories)
            .map(
                x0 ->
                    new ChartModel.Marker(
                        "default: " + defaultText(data.session(), knob), x0, null));
    List<ChartModel.Marker> markers = new ArrayList<>(failures);
    defaultMark.ifPresent(markers::add);
    // The baseline runs are runs at the default value: they give that point its repeats.
    List<TrialResult> plotted = new ArrayList<>(ordered);
    Optional<Double> atDefault = defaultMark.map(ChartModel.Marker::x).filter(x0 -> !log || x0 > 0);
    if (atDefault.isPresent()) {
      for (TrialResult t : data.okPhase(Phase.BASELINE)) {
        xByTrial.put(t.trial(), atDefault.get());
        plotted.add(t);
      }
      plotted.sort(Comparator.comparingDouble((TrialResult t) -> xByTrial.get(t.trial())));
    }
    List<ChartModel> charts = new ArrayList<>();
    for (Figure fig : FIGURES) {
      if (fig.metrics.get(0).fromSampler && !sampled) {
        continue; // a remote server: no process samples to plot
      }
      if (ordered.stream().allMatch(t -> Double.isNaN(fig.metrics.get(0).of(t)))) {
        continue; // a figure the workload does not have (NOPM of pgbench's scripts)
      }
      List<ChartModel.Band> bands = baseline.bandOrPooled(fig.metrics.get(0)).stream().toList();
      // Joined points inside the noise make a V that means nothing: join them only over the band.
      boolean join = fig.metrics.get(0).fromSampler || !bands.isEmpty();
      List<ChartModel.Series> series = new ArrayList<>();
      for (int i = 0; i < fig.metrics.size(); i++) {
        Metric m = fig.metrics.get(i);
        series.add(
            new ChartModel.Series(
                m.label,
                COLOURS.get(i),
                join ? ChartModel.Style.LINE : ChartModel.Style.POINTS,
                points(plotted, xByTrial, m, baseline.runCv(m))));
      }
      StringBuilder caption = new StringBuilder();
      if (!fig.metrics.get(0).fromSampler) {
        caption.append(
            "Each point is the mean of the runs at that value; its bar spans ± 2 standard errors"
                + " (from its repeats, or from the pooled run noise when it ran once).");
        if (!join) {
          caption.append(" No noise level is known (one baseline run): the points are not joined.");
        }
      }
      defaultMark.ifPresent(
          mk ->
              caption
                  .append(caption.length() > 0 ? " " : "")
                  .append("The line marks the ")
                  .append(mk.label())
                  .append(atDefault.isPresent() ? "; its point pools the baseline runs." : "."));
      if (!failures.isEmpty()) {
        caption
            .append(caption.length() > 0 ? " " : "")
            .append("Orange lines mark values that failed: ")
            .append(String.join(", ", failures.stream().map(ChartModel.Marker::label).toList()))
            .append('.');
      }
      charts.add(
          AxisFit.fit(
              new ChartModel(
                  "sweep-" + fileSafe(knob) + "-" + fig.suffix,
                  knob + ": " + fig.title,
                  caption.toString(),
                  x,
                  yAxis(fig, series),
                  series,
                  bands,
                  markers)));
    }
    return new ReportModel.Sweep(knob, unit, log, values, charts);
  }

  /**
   * One point per value tried: the mean of its successful runs, with a ± 2 standard error bar for
   * the workload's figures (the sampler's have no run noise to draw).
   */
  static List<ChartModel.Point> points(
      List<TrialResult> ordered,
      Map<Integer, Double> xByTrial,
      Metric m,
      java.util.OptionalDouble pooledCv) {
    Map<Double, List<Double>> byX = new LinkedHashMap<>();
    for (TrialResult t : ordered) {
      double y = m.of(t);
      if (!Double.isNaN(y)) {
        byX.computeIfAbsent(Num.r(xByTrial.get(t.trial())), k -> new ArrayList<>()).add(y);
      }
    }
    List<ChartModel.Point> out = new ArrayList<>();
    byX.forEach(
        (x0, ys) -> {
          double mean = Num.mean(ys);
          double sd =
              ys.size() >= 2
                  ? Num.sd(ys)
                  : pooledCv.isPresent() ? pooledCv.getAsDouble() * mean : 0;
          double half = Baseline.BAND_SDS * sd / Math.sqrt(ys.size());
          if (m.fromSampler || !(half > 0)) {
            out.add(new ChartModel.Point(x0, Num.r(mean)));
          } else {
            out.add(new ChartModel.Point(x0, Num.r(mean), Num.r(mean - half), Num.r(mean + half)));
          }
        });
    return out;
  }

  /**
   * Where the server's default lies on the knob's axis, from the boot value session.json records
   * ({"settings": {knob: {"bootValue": "128MB"}}}); empty when it is not recorded or in another
   * unit.
   */
  static Optional<Double> defaultValue(
      JsonNode session, String knob, String unit, boolean numeric, List<String> categories) {
    String boot = session.path("settings").path(knob).path("bootValue").asText("");
    if (boot.isEmpty()) {
      return Optional.empty();
    }
    if (!numeric) {
      int i = categories.indexOf(boot);
      return i < 0 ? Optional.empty() : Optional.of((double) i);
    }
    Matcher m = NUMBER.matcher(boot.trim());
    if (!m.find() || !boot.trim().substring(m.end()).trim().equals(unit)) {
      return Optional.empty();
    }
    return Optional.of(Double.parseDouble(m.group()));
  }

  private static String defaultText(JsonNode session, String knob) {
    return session.path("settings").path(knob).path("bootValue").asText("");
  }

  /**
   * Throughput and latency fit their data, so differences show; CPU, memory and disk start at zero,
   * where the seed study's readers expect them.
   */
  private static ChartModel.Axis yAxis(Figure fig, List<ChartModel.Series> series) {
    if (!fig.metrics.get(0).fromSampler) {
      return ChartModel.Axis.linear(fig.yLabel);
    }
    double max =
        series.stream()
            .flatMap(s -> s.points().stream())
            .mapToDouble(ChartModel.Point::y)
            .max()
            .orElse(0);
    return max > 0
        ? new ChartModel.Axis(fig.yLabel, false, List.of(), 0.0, Num.r(max * 1.1))
        : ChartModel.Axis.linear(fig.yLabel);
  }

  static String fileSafe(String s) {
    return s.replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  private static Optional<Double> numericValue(TrialResult t, String knob) {
    Object v = t.config().get(knob);
    if (v instanceof Number n) {
      return Optional.of(n.doubleValue());
    }
    String s = v != null ? v.toString() : t.settings().get(knob);
    if (s == null) {
      return Optional.empty();
    }
    String trimmed = s.trim();
    Matcher m = NUMBER.matcher(trimmed);
    if (!m.find()) {
      return Optional.empty();
    }
    // A configured value must be a bare number; a rendered setting may carry its unit (1024MB).
    if (v != null && m.end() != trimmed.length()) {
      return Optional.empty();
    }
    return Optional.of(Double.parseDouble(m.group()));
  }

  private static String rendered(TrialResult t, String knob) {
    String s = t.settings().get(knob);
    if (s != null) {
      return s;
    }
    Object v = t.config().get(knob);
    return v == null ? "?" : v.toString();
  }

  /** The unit PostgreSQL writes after the number in the rendered setting, e.g. MB or min. */
  private static String unitOf(String knob, List<TrialResult> trials) {
    for (TrialResult t : trials) {
      String s = t.settings().get(knob);
      if (s != null) {
        Matcher m = NUMBER.matcher(s.trim());
        if (m.find()) {
          return s.trim().substring(m.end()).trim();
        }
      }
    }
    return "";
  }

  /**
   * A log axis when the search space in session.json says the knob is on a log scale; when it does
   * not say, when the values are positive and span a factor of {@link #LOG_SPAN} or more.
   */
  private static boolean isLog(JsonNode session, String knob, java.util.Collection<Double> xs) {
    Optional<String> declared = declaredScale(session, knob);
    boolean positive = xs.stream().allMatch(v -> v > 0);
    if (declared.isPresent()) {
      return positive && declared.get().equalsIgnoreCase("log");
    }
    double min = xs.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double max = xs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    return positive && min > 0 && max / min >= LOG_SPAN;
  }

  /** Finds {"name": knob, "scale": ...} anywhere in session.json (the search space it records). */
  static Optional<String> declaredScale(JsonNode node, String knob) {
    if (node == null) {
      return Optional.empty();
    }
    if (node.isObject()
        && knob.equals(node.path("name").asText(null))
        && node.path("scale").isTextual()) {
      return Optional.of(node.path("scale").asText());
    }
    if (node.isObject()
        && node.path(knob).isObject()
        && node.path(knob).path("scale").isTextual()) {
      return Optional.of(node.path(knob).path("scale").asText());
    }
    for (JsonNode child : node) {
      Optional<String> found = declaredScale(child, knob);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }
}
