package org.pgknob.report;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.pgknob.BuildInfo;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.workload.TransactionProfile;

/**
 * Writes the report as one self-contained HTML page: inline CSS, charts as PNG data URIs, no script
 * and nothing fetched, so it opens offline and can be mailed as one file.
 */
public final class HtmlReport {
  private static final String CSS =
      """
      body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:0 auto;max-width:1900px;
        padding:16px 28px;color:#222;line-height:1.4;font-size:14px}
      h1{font-size:24px;margin:4px 0}
      h2{font-size:19px;margin:28px 0 8px;border-bottom:2px solid #0072b2;padding-bottom:3px}
      h3{font-size:16px;margin:18px 0 6px}
      .sub{color:#555;margin:0 0 8px}
      nav a{margin-right:14px;color:#0072b2;text-decoration:none}
      .notice{background:#fff4e0;border-left:5px solid #e69f00;padding:8px 12px;margin:8px 0}
      .note{color:#444;font-style:italic}
      dl.glance{display:grid;grid-template-columns:max-content auto;gap:3px 18px;margin:6px 0}
      dl.glance dt{font-weight:bold;color:#444}
      dl.glance dd{margin:0}
      table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}
      th,td{border:1px solid #ccc;padding:3px 7px;text-align:right;vertical-align:top}
      th{background:#eef3f8;position:sticky;top:0}
      td.text,th.text{text-align:left}
      td.settings{text-align:left;font-family:"DejaVu Sans Mono",monospace;font-size:12px}
      tr.failed td{background:#fdf0ef}
      td.ratio{white-space:nowrap}
      td.ratio small{font-weight:normal;color:#555}
      .gain{color:#006b4f;font-weight:bold}
      .loss{color:#b3261e;font-weight:bold}
      .status-ok{color:#006b4f}
      .status-failed{color:#b3261e}
      .disturbed{color:#8a5a00}
      .ran-again{color:#555}
      td.nowrap{white-space:nowrap}
      .grid{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:12px}
      .side{display:flex;gap:40px;flex-wrap:wrap;align-items:flex-start}
      figure{margin:6px 0 14px}
      figure img{max-width:100%;height:auto;border:1px solid #ddd}
      figcaption{font-size:12px;color:#444;max-width:1100px}
      .swatch{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
      footer{margin-top:30px;color:#777;font-size:12px}
      .table-box{max-width:100%;overflow-x:auto}
      @media (max-width:900px){
        td.settings{overflow-wrap:anywhere}
        body{padding:8px 10px}
        .grid{grid-template-columns:minmax(0,1fr)}
        dl.glance{grid-template-columns:max-content minmax(0,1fr)}
        dl.glance dd{margin:0 0 6px;overflow-wrap:anywhere}
      }
      @media (max-width:1250px){
        #trials-table td.settings{overflow-wrap:anywhere}
        #results-table,#results-table tbody,#results-table tr,#results-table td{display:block}
        #results-table tr.head{display:none}
        #results-table tr{border:1px solid #ccc;margin:0 0 10px;padding:4px 6px}
        #results-table td{border:none;text-align:left;padding:1px 0}
        #results-table td:empty{display:none}
        #results-table td[data-label]::before{content:attr(data-label) ": ";color:#555}
        #results-table td.ratio{white-space:normal}
      }
      """;

  private HtmlReport() {}

  /**
   * The page for {@code model}, with {@code drawn} holding each chart as drawn (PNG and tick
   * labels) by chart id.
   */
  public static String render(ReportModel model, Map<String, ChartRenderer.Rendered> drawn) {
    return render(model, drawn, null);
  }

  /** The page, opened by the session's verdict when it recorded one. */
  public static String render(
      ReportModel model, Map<String, ChartRenderer.Rendered> drawn, Summary.Verdict verdict) {
    StringBuilder h = new StringBuilder(1 << 20);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>pgknob report: ")
        .append(esc(model.sessionId()))
        .append("</title>\n<style>\n")
        .append(CSS)
        .append(VerdictBlock.CSS)
        .append("</style>\n</head>\n<body>\n");
    h.append("<h1>pgknob report</h1>\n<p class=\"sub\">Session <b>")
        .append(esc(model.sessionId()))
        .append("</b></p>\n");
    h.append(VerdictBlock.html(verdict));
    h.append(
        "<nav><a href=\"#glance\">At a glance</a><a href=\"#results\">Results</a>"
            + "<a href=\"#drift\">Drift</a>"
            + "<a href=\"#convergence\">Convergence</a><a href=\"#sweeps\">Sweeps</a>"
            + "<a href=\"#importance\">Knob importance</a><a href=\"#knobs\">Knobs searched</a>"
            + "<a href=\"#timelines\">Timelines</a>"
            + "<a href=\"#latency\">Latency</a><a href=\"#memory\">Memory and disk</a>"
            + "<a href=\"#profiles\">Transactions</a>"
            + "<a href=\"#trials\">All trials</a></nav>\n");
    if (!model.notices().isEmpty()) {
      h.append("<section id=\"notices\">\n");
      model
          .notices()
          .forEach(n -> h.append("<p class=\"notice\">").append(esc(n)).append("</p>\n"));
      h.append("</section>\n");
    }
    glance(h, model);
    ReportModel.Absent absent = model.absent();
    results(h, model.results(), absent.trials());
    charts(
        h,
        "drift",
        "The drift: every trial in run order",
        listOf(model.runOrder()),
        drawn,
        absent.trials());
    charts(h, "convergence", "Convergence", model.convergence(), drawn, absent.convergence());
    sweeps(h, model.sweeps(), drawn, absent.sweeps());
    importance(h, model.importance(), absent);
    knobSelection(h, model.importance().selection(), absent.knobs());
    charts(h, "timelines", "Trial timelines", model.timelines(), drawn, absent.timelines());
    charts(
        h,
        "latency",
        "Latency: the tails and the distribution",
        listOf(model.tailLatency(), model.latencyDistribution()),
        drawn,
        "No successful trial reported its latency.");
    charts(
        h,
        "memory",
        "Memory and disk against their limits",
        listOf(model.memory(), model.disk()),
        drawn,
        "No trial has memory or disk figures or a memory prediction.");
    profiles(h, model.profiles(), absent.profiles());
    trials(h, model.trials(), absent.trialsTable());
    h.append("<footer>Written by pgknob ")
        .append(esc(BuildInfo.version()))
        .append(". Each chart is also in the charts/ folder beside this file.</footer>\n")
        .append("</body>\n</html>\n");
    return h.toString();
  }

  /** The charts that exist, in order. */
  private static List<ChartModel> listOf(ChartModel... charts) {
    return java.util.Arrays.stream(charts).filter(java.util.Objects::nonNull).toList();
  }

  private static void glance(StringBuilder h, ReportModel model) {
    h.append("<section id=\"glance\">\n<h2>The session at a glance</h2>\n<dl class=\"glance\">\n");
    for (ReportModel.Fact f : model.glance()) {
      h.append("<dt>")
          .append(esc(f.name()))
          .append("</dt><dd>")
          .append(esc(f.value()))
          .append("</dd>\n");
    }
    h.append("</dl>\n</section>\n");
  }

  private static void results(StringBuilder h, ReportModel.Results results, String whenEmpty) {
    h.append("<section id=\"results\">\n<h2>Results</h2>\n");
    if (!results.note().isEmpty()) {
      h.append("<p class=\"note\">").append(esc(results.note())).append("</p>\n");
    } else {
      h.append(
          "<p class=\"note\">Each row was re-measured against the baseline in interleaved runs;"
              + " a ratio is a gain or loss only when its 95% interval excludes 1. For latency,"
              + " below 1 is better.</p>\n");
    }
    if (results.rows().isEmpty()) {
      h.append("<p>").append(esc(whenEmpty)).append("</p>\n</section>\n");
      return;
    }
    // The key columns first; below 1250 px each row becomes a card of labelled lines (CSS), so
    // nothing is cut off on a narrower screen, and the box scrolls sideways as a last resort. The
    // table needs about 1180 px when its settings (one per line, never broken inside a name) are
    // as long as a default session's.
    h.append(
        "<div class=\"table-box\">\n<table id=\"results-table\">\n<tr class=\"head\">"
            + "<th class=\"text\">configuration</th><th>window TPS</th>"
            + "<th>TPS incl. checkpoint</th>"
            + "<th>TPS vs baseline (95% interval)</th><th class=\"text\">verdict</th>"
            + "<th>latency vs baseline (95% interval)</th>"
            + "<th>NOPM</th><th>avg latency (ms)</th><th>p95 latency (ms)</th>"
            + "<th class=\"text\">trials</th>"
            + "<th class=\"text\">changed settings</th></tr>\n");
    for (Summary.ResultRow r : results.rows()) {
      h.append("<tr data-row=\"")
          .append(esc(r.name()))
          .append("\"><td class=\"text key\"><b>")
          .append(esc(r.name()))
          .append("</b></td>")
          .append(labelled("window TPS", num(r.windowTps() > 0 ? r.windowTps() : null)))
          .append(labelled("TPS incl. checkpoint", num(r.tps())))
          .append(labelled("TPS vs baseline", ratio(r.tpsRatio(), true, r.claimsGain(Goal.TPS))))
          .append(labelled("verdict", "<td class=\"text\">" + esc(verdictText(r)) + "</td>"))
          .append(
              labelled(
                  "latency vs baseline",
                  ratio(r.latencyRatio(), false, r.claimsGain(Goal.LATENCY))))
          .append(labelled("NOPM", num(r.nopm() == null ? null : reported(r.nopm()))))
          .append(labelled("avg latency (ms)", num(reported(r.latencyAvgMs()))))
          .append(labelled("p95 latency (ms)", num(reported(r.latencyP95Ms()))))
          .append(
              labelled(
                  "trials",
                  "<td class=\"text\">"
                      + esc(r.trials() == null ? "" : joinInts(r.trials()))
                      + "</td>"))
          .append(labelled("changed settings", resultSettings(r)))
          .append("</tr>\n");
    }
    h.append("</table>\n</div>\n</section>\n");
  }

  /** The cell with the column's name in data-label, which the narrow layout prints before it. */
  private static String labelled(String label, String td) {
    return td.replaceFirst("^<td", "<td data-label=\"" + esc(label) + "\"");
  }

  /** A ratio's cell; a gain the row does not claim (below what it can detect) is not marked. */
  private static String ratio(Summary.Ratio ratio, boolean higherIsBetter, boolean gainClaimed) {
    if (ratio == null) {
      return "<td></td>";
    }
    if (ratio.pairs() <= 0 || !(ratio.high() > ratio.low())) {
      return Num.f(
          "<td class=\"ratio\">%.3f&times;<br><small>no interval (not paired)</small></td>",
          ratio.estimate());
    }
    String cls = "";
    if (ratio.excludesOne()) {
      boolean better = higherIsBetter ? ratio.low() > 1 : ratio.high() < 1;
      cls = better ? (gainClaimed ? " gain" : "") : " loss";
    }
    return Num.f(
        "<td class=\"ratio%s\">%.3f&times;<br><small>%.3f&ndash;%.3f, %d pairs</small></td>",
        cls, ratio.estimate(), ratio.low(), ratio.high(), ratio.pairs());
  }

  private static void sweeps(
      StringBuilder h,
      List<ReportModel.Sweep> sweeps,
      Map<String, ChartRenderer.Rendered> drawn,
      String whenEmpty) {
    h.append("<section id=\"sweeps\">\n<h2>Sweeps: one knob at a time</h2>\n");
    if (sweeps.isEmpty()) {
      h.append("<p>").append(esc(whenEmpty)).append("</p>\n</section>\n");
      return;
    }
    h.append(
        "<p class=\"note\">Each knob alone against the defaults: throughput, latency, server CPU,"
            + " memory (summed RSS counts shared memory once per process, PSS once) and disk."
            + " The grey band is the baseline's noise (mean ± 2 sd of the baseline runs) for each"
            + " chart's first metric; knobs on a log scale get a log axis.</p>\n");
    for (ReportModel.Sweep s : sweeps) {
      h.append("<h3>")
          .append(esc(s.knob()))
          .append("</h3>\n<p>Values tried: ")
          .append(esc(String.join(", ", s.values())))
          .append(s.log() ? " (log scale)" : "")
          .append("</p>\n<div class=\"grid\">\n");
      s.charts().forEach(c -> figure(h, c, drawn));
      h.append("</div>\n");
    }
    h.append("</section>\n");
  }

  private static void charts(
      StringBuilder h,
      String id,
      String title,
      List<ChartModel> charts,
      Map<String, ChartRenderer.Rendered> drawn,
      String whenEmpty) {
    h.append("<section id=\"").append(id).append("\">\n<h2>").append(esc(title)).append("</h2>\n");
    if (charts.isEmpty()) {
      h.append("<p>").append(esc(whenEmpty)).append("</p>\n");
    }
    charts.forEach(c -> figure(h, c, drawn));
    h.append("</section>\n");
  }

  private static void figure(
      StringBuilder h, ChartModel c, Map<String, ChartRenderer.Rendered> drawn) {
    ChartRenderer.Rendered chart = drawn.get(c.id());
    if (chart == null) {
      return;
    }
    boolean small = ChartRenderer.isSmall(c);
    h.append("<figure><img class=\"chart\" data-chart=\"")
        .append(esc(c.id()))
        .append("\" width=\"")
        .append(small ? ChartRenderer.SMALL_WIDTH : ChartRenderer.WIDE_WIDTH)
        .append("\" height=\"")
        .append(small ? ChartRenderer.SMALL_HEIGHT : ChartRenderer.WIDE_HEIGHT)
        .append("\" data-x-ticks=\"")
        .append(esc(String.join("|", chart.xTicks())))
        .append("\" data-y-ticks=\"")
        .append(esc(String.join("|", chart.yTicks())))
        .append("\" alt=\"")
        .append(esc(c.title()))
        .append("\" src=\"data:image/png;base64,")
        .append(Base64.getEncoder().encodeToString(chart.png()))
        .append("\"><figcaption>")
        .append(esc(c.caption()))
        .append(" <span class=\"file\">(charts/")
        .append(esc(c.id()))
        .append(".png)</span></figcaption></figure>\n");
  }

  private static void importance(
      StringBuilder h, ReportModel.Importance imp, ReportModel.Absent absent) {
    h.append("<section id=\"importance\">\n<h2>Knob importance</h2>\n<div class=\"side\">\n");
    ranking(
        h, "Sweep ranking (from " + imp.sweepSource() + ")", imp.sweep(), absent.sweepRanking());
    ranking(h, "Model ranking (fitted surrogate)", imp.model(), absent.model());
    h.append("</div>\n</section>\n");
  }

  /**
   * Which knobs each track's Bayesian phase searched and why: the sweep's and the model's effect
   * against the noise, and the trial after which a knob was added.
   */
  private static void knobSelection(
      StringBuilder h, List<Summary.KnobChoice> rows, String whenEmpty) {
    h.append("<section id=\"knobs\">\n<h2>Knobs searched</h2>\n");
    if (rows.isEmpty()) {
      h.append("<p>").append(esc(whenEmpty)).append("</p>\n</section>\n");
      return;
    }
    h.append(
        "<p class=\"note\">Effects are ranges over the noise of repeated baselines: a sweep's curve,"
            + " and the model's main effect (the knob's curve with every other knob averaged"
            + " over the space); the Sobol index is the share of the model's variance the knob"
            + " explains alone. 3 x noise counts as an effect.</p>\n");
    h.append(
        "<table><tr><th class=\"text\">track</th><th class=\"text\">knob</th>"
            + "<th class=\"text\">searched</th><th>sweep x noise</th><th>model x noise</th>"
            + "<th>Sobol index</th><th class=\"text\">why</th></tr>\n");
    for (Summary.KnobChoice k : rows) {
      h.append("<tr><td class=\"text\">")
          .append(esc(k.track().label()))
          .append("</td><td class=\"text\">")
          .append(esc(k.knob()))
          .append("</td><td class=\"text\">")
          .append(
              k.searched()
                  ? (k.addedAfterTrial() > 0 ? "from trial " + k.addedAfterTrial() : "yes")
                  : "no")
          .append("</td><td>")
          .append(k.sweepNoiseMultiple() == null ? "" : Num.f("%.1f", k.sweepNoiseMultiple()))
          .append("</td><td>")
          .append(k.modelNoiseMultiple() == null ? "" : Num.f("%.1f", k.modelNoiseMultiple()))
          .append("</td><td>")
          .append(k.modelIndex() == null ? "" : Num.f("%.2f", k.modelIndex()))
          .append("</td><td class=\"text\">")
          .append(esc(k.reason()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n</section>\n");
  }

  private static void ranking(
      StringBuilder h, String title, List<Summary.KnobImportance> rows, String whenEmpty) {
    h.append("<div><h3>").append(esc(title)).append("</h3>\n");
    if (rows.isEmpty()) {
      h.append("<p>").append(esc(whenEmpty)).append("</p></div>\n");
      return;
    }
    h.append(
        "<table><tr><th>#</th><th class=\"text\">knob</th><th>importance</th>"
            + "<th class=\"text\">verdict</th></tr>\n");
    int rank = 1;
    for (Summary.KnobImportance k : rows) {
      h.append("<tr><td>")
          .append(rank++)
          .append("</td><td class=\"text\">")
          .append(esc(k.knob()))
          .append("</td><td>")
          .append(Num.f("%.3f", k.importance()))
          .append("</td><td class=\"text\">")
          .append(esc(k.verdict()))
          .append("</td></tr>\n");
    }
    h.append("</table></div>\n");
  }

  private static void profiles(
      StringBuilder h, List<ReportModel.Profile> profiles, String whenEmpty) {
    h.append(
        "<section id=\"profiles\">\n<h2>Per-transaction latency</h2>\n<p class=\"note\">As"
            + " HammerDB's time profile shows it, pooled over each configuration's trials:"
            + " percentiles are the call-weighted mean of each trial's.</p>\n");
    if (profiles.isEmpty()) {
      h.append("<p>").append(esc(whenEmpty)).append("</p>\n");
    }
    h.append("<div class=\"side\">\n");
    for (ReportModel.Profile p : profiles) {
      h.append("<div><h3>")
          .append(esc(p.name()))
          .append(" <small>(trials ")
          .append(esc(joinInts(p.trials())))
          .append(
              ")</small></h3>\n<table class=\"profile\"><tr><th class=\"text\">transaction</th>")
          .append("<th>calls</th><th>errors</th><th>avg ms</th><th>p50 ms</th><th>p95 ms</th>")
          .append("<th>p99 ms</th><th>max ms</th></tr>\n");
      for (TransactionProfile t : p.transactions()) {
        boolean all = t.name().equals("all");
        h.append(all ? "<tr style=\"font-weight:bold\">" : "<tr>")
            .append("<td class=\"text\">")
            .append(esc(t.name()))
            .append("</td><td>")
            .append(t.calls())
            .append("</td><td>")
            .append(t.errors())
            .append("</td>")
            .append(num(t.latency().avgMs()))
            .append(num(t.latency().p50Ms()))
            .append(num(t.latency().p95Ms()))
            .append(num(t.latency().p99Ms()))
            .append(num(t.latency().maxMs()))
            .append("</tr>\n");
      }
      h.append("</table></div>\n");
    }
    h.append("</div>\n</section>\n");
  }

  private static void trials(StringBuilder h, List<ReportModel.TrialRow> rows, String whenEmpty) {
    h.append("<section id=\"trials\">\n<h2>All trials</h2>\n");
    if (rows.isEmpty()) {
      h.append("<p>").append(esc(whenEmpty)).append("</p>\n</section>\n");
      return;
    }
    h.append(
        "<div class=\"table-box\"><table id=\"trials-table\"><tr><th>#</th><th class=\"text\">phase</th>"
            + "<th class=\"text\">track</th><th class=\"text\">label</th>"
            + "<th class=\"text\">status</th><th>TPS</th><th>NOPM</th><th>avg ms</th>"
            + "<th>p95 ms</th><th>CPU %</th><th>RSS MB</th><th>PSS MB</th>"
            + "<th>predicted MB</th><th class=\"text\">settings</th></tr>\n");
    for (ReportModel.TrialRow r : rows) {
      boolean ok = "ok".equals(r.status());
      h.append(ok ? "<tr>" : "<tr class=\"failed\">")
          .append("<td>")
          .append(r.trial())
          .append("</td><td class=\"text\">")
          .append(esc(r.phase()))
          .append("</td><td class=\"text nowrap\"><span class=\"swatch\" style=\"background:")
          .append(Palette.css(r.track() == null ? "" : r.track()))
          .append("\"></span>")
          .append(esc(r.track()))
          .append("</td><td class=\"text\">")
          .append(esc(r.label()))
          .append("</td><td class=\"text ")
          .append(ok ? "status-ok" : "status-failed")
          .append("\"><b>")
          .append(esc(r.status()))
          .append("</b>")
          .append(r.reason().isEmpty() ? "" : ": " + esc(r.reason()))
          .append(
              r.disturbance() == null
                  ? ""
                  : "<br><span class=\"disturbed\">&#9888; disturbed: "
                      + esc(r.disturbance())
                      + "; numbers may be low</span>")
          .append(
              r.ranAgain() == null
                  ? ""
                  : "<br><span class=\"ran-again\">&#8635; " + esc(r.ranAgain()) + "</span>")
          .append("</td>")
          .append(num(r.tps()))
          .append(num(r.nopm()))
          .append(num(r.latencyAvgMs()))
          .append(num(r.latencyP95Ms()))
          .append(num(r.cpuPct()))
          .append(num(r.rssMb()))
          .append(num(r.pssMb()))
          .append(num(r.predictedMemoryMb()))
          .append(settings(r.settings()))
          .append("</tr>\n");
    }
    h.append("</table></div>\n</section>\n");
  }

  /**
   * A result row's changed settings, and below them those of the search's best that the session
   * left at their defaults before validating it, with why.
   */
  private static String resultSettings(Summary.ResultRow r) {
    String cell = settings(r.settings());
    if (r.simplified() == null || r.simplified().leftAtDefaults().isEmpty()) {
      return cell;
    }
    StringBuilder left =
        new StringBuilder("<div class=\"simplified\"><small>left at the defaults: ");
    new java.util.TreeMap<>(r.simplified().leftAtDefaults())
        .forEach((k, v) -> left.append(esc(k)).append('=').append(esc(v)).append("<br>"));
    left.append("(")
        .append(esc(r.simplified().note().replaceFirst("^.* left at (its|their) defaults \\(", "")))
        .append("</small></div>");
    return cell.replaceFirst("</td>$", java.util.regex.Matcher.quoteReplacement(left + "</td>"));
  }

  private static String settings(Map<String, String> settings) {
    if (settings == null || settings.isEmpty()) {
      return "<td class=\"settings\">(defaults)</td>";
    }
    StringBuilder sb = new StringBuilder("<td class=\"settings\">");
    new java.util.TreeMap<>(settings)
        .forEach((k, v) -> sb.append(esc(k)).append('=').append(esc(v)).append("<br>"));
    return sb.append("</td>").toString();
  }

  /** Null (an empty cell) for a metric the workload did not report: a benchmark command's 0. */
  private static Double reported(double x) {
    return x > 0 ? x : null;
  }

  /** The row's verdict, and what its WAL would do to the session's disk when too much. */
  private static String verdictText(Summary.ResultRow r) {
    return r.diskWarning() == null
        ? r.verdict()
        : r.verdict() + "; too much WAL for the disk: " + r.diskWarning();
  }

  private static String num(Double x) {
    return "<td>" + Num.fmt(x) + "</td>";
  }

  private static String joinInts(List<Integer> xs) {
    return String.join(", ", xs.stream().map(String::valueOf).toList());
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
