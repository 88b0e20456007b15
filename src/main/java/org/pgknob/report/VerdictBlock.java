package org.pgknob.report;

import org.pgknob.runs.Summary;

/**
 * The report's first block, {@code <section id="verdict">}: the session's verdict as summary.json
 * records it (the session decides it), so what the page says first is what the console said first.
 * Its next steps are shown as commands to copy.
 */
final class VerdictBlock {
  /** Its rules, added to the report's style sheet. */
  static final String CSS =
      """
      #verdict{border:2px solid #0072b2;border-radius:6px;padding:10px 14px;margin:8px 0 14px;
        background:#f3f8fc;max-width:1100px}
      #verdict.kind-apply,#verdict.kind-pgtune{border-color:#009e73;background:#f0faf6}
      #verdict.kind-stopped,#verdict.kind-failed{border-color:#e69f00;background:#fff8eb}
      #verdict h2{margin:0 0 6px}
      #verdict .headline{font-size:17px;font-weight:bold;margin:0 0 6px}
      #verdict ul{margin:4px 0 8px;padding-left:20px}
      #verdict pre{background:#fff;border:1px solid #ccc;padding:6px 8px;margin:2px 0;
        white-space:pre-wrap;word-break:break-all}
      #verdict .why{color:#444;font-size:13px;margin:6px 0 0}
      """;

  private VerdictBlock() {}

  /** The block's HTML, or nothing when the session recorded no verdict (older or unfinished). */
  static String html(Summary.Verdict v) {
    if (v == null) {
      return "";
    }
    StringBuilder h = new StringBuilder();
    h.append("<section id=\"verdict\" class=\"kind-")
        .append(HtmlReport.esc(v.kind()))
        .append("\">\n<h2>Verdict</h2>\n<p class=\"headline\">")
        .append(HtmlReport.esc(v.headline()))
        .append("</p>\n");
    if (!v.details().isEmpty()) {
      h.append("<ul>\n");
      v.details().forEach(d -> h.append("<li>").append(HtmlReport.esc(d)).append("</li>\n"));
      h.append("</ul>\n");
    }
    if (!v.next().isEmpty()) {
      h.append("<h3>Next</h3>\n");
      for (Summary.NextStep n : v.next()) {
        h.append("<p class=\"why\">")
            .append(HtmlReport.esc(n.why()))
            .append(":</p>\n<pre><code>")
            .append(HtmlReport.esc(n.command()))
            .append("</code></pre>\n");
      }
    }
    return h.append("</section>\n").toString();
  }
}
