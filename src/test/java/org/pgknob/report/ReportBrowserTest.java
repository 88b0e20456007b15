package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.runs.Summary;

/**
 * Opens the report in a real browser (Debian's chromium, headless): no broken image, every chart
 * shows its data, the results table holds its rows, and the page renders to a screenshot (kept as
 * target/report-screenshot.png for people to look at). Without chromium the test is skipped on a
 * workstation and fails in CI (the CI variable set), where .ci/run installs it.
 */
class ReportBrowserTest {
  private static final Pattern CHECK = Pattern.compile("<pre id=\"pgknob-check\">([^<]*)</pre>");
  private static final int BROWSER_TIMEOUT_SECONDS = 90;

  @TempDir Path tmp;

  @Test
  void reportOpensWithEveryChartDrawnAndTheResultsRows() throws Exception {
    Path chromium = chromiumOrSkip();
    Path dir = Fixtures.copy(tmp.resolve("run"));
    Path report = ReportWriter.write(dir);
    ReportModel model = ReportModelBuilder.build(SessionLoader.load(dir));

    Path checked = dir.resolve("report-check.html");
    Files.writeString(
        checked,
        Files.readString(report).replace("</body>", checkScript(model) + "</body>"),
        StandardCharsets.UTF_8);
    String dom = browse(chromium, List.of("--dump-dom", checked.toUri().toString()));
    Matcher m = CHECK.matcher(dom);
    assertTrue(m.find(), "the check script did not run; the page's DOM:\n" + head(dom));
    Map<String, String> check = parse(m.group(1));
    assertEquals(String.valueOf(model.charts().size()), check.get("images"), check.toString());
    assertEquals("", check.get("broken"), "images that did not load");
    assertEquals("", check.get("empty"), "charts without their data's colours");
    assertEquals(
        "defaults,pgtune,reload/tps,reload/latency,restart/tps,restart/latency", check.get("rows"));

    Path shot = tmp.resolve("screenshot.png");
    browse(
        chromium,
        List.of("--screenshot=" + shot, "--window-size=1400,5000", report.toUri().toString()));
    assertTrue(Files.exists(shot), "no screenshot written");
    BufferedImage img = ImageIO.read(shot.toFile());
    assertEquals(1400, img.getWidth());
    assertTrue(Files.size(shot) > 100_000, "screenshot is suspiciously small: " + Files.size(shot));
    assertTrue(colourfulPixels(img) > 10_000, "the screenshot shows no charts");
    Files.copy(shot, Path.of("target/report-screenshot.png"), StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void theVerdictIsTheFirstBlockAndVisibleWithoutScrolling() throws Exception {
    Path chromium = chromiumOrSkip();
    Path dir = Fixtures.copy(tmp.resolve("run"));
    Path summaryFile = dir.resolve("summary.json");
    Summary summary = org.pgknob.Json.mapper().readValue(summaryFile.toFile(), Summary.class);
    String headline = "Apply best-restart-tps.conf: 1.18x TPS, 1.09 to 1.27 against the defaults";
    org.pgknob.Json.mapper()
        .writeValue(
            summaryFile.toFile(),
            summary.withVerdict(
                new Summary.Verdict(
                    "apply",
                    headline,
                    List.of("restart/tps against the defaults: 1.18x TPS (1.09 to 1.27), gain"),
                    List.of(
                        new Summary.NextStep(
                            "./pgknob apply --from runs/x/best-restart-tps.conf", "apply it")),
                    "best-restart-tps.conf",
                    true,
                    new Summary.Ratio(1.18, 1.09, 1.27, 3),
                    null)));
    Path report = ReportWriter.write(dir);
    Path checked = dir.resolve("report-verdict.html");
    Files.writeString(
        checked,
        Files.readString(report)
            .replace(
                "</body>",
                """
                <script>
                window.addEventListener('load', function () {
                  var v = document.getElementById('verdict');
                  var first = document.querySelector('section');
                  var r = v ? v.getBoundingClientRect() : null;
                  var pre = document.createElement('pre');
                  pre.id = 'pgknob-check';
                  pre.textContent = 'found=' + (v !== null) + ';first=' + (first === v)
                      + ';visible=' + (r !== null && r.height > 0 && r.top >= 0
                          && r.bottom <= window.innerHeight
                          && getComputedStyle(v).visibility === 'visible'
                          && getComputedStyle(v).display !== 'none')
                      + ';headline=' + (v ? v.querySelector('.headline').textContent : '')
                      + ';command=' + (v ? v.querySelector('pre code').textContent : '') + ';';
                  document.body.appendChild(pre);
                });
                </script>
                </body>"""),
        StandardCharsets.UTF_8);
    String dom =
        browse(
            chromium, List.of("--window-size=1280,800", "--dump-dom", checked.toUri().toString()));
    Matcher m = CHECK.matcher(dom);
    assertTrue(m.find(), "the check script did not run; the page's DOM:\n" + head(dom));
    assertEquals(
        "{command=./pgknob apply --from runs/x/best-restart-tps.conf, first=true, found=true,"
            + " headline="
            + headline
            + ", visible=true}",
        parse(m.group(1)).toString(),
        "the verdict block opens the page, inside the first 800 px");
  }

  /**
   * A session whose trials all measured the same draws every axis with at least two distinct tick
   * labels (read back from the drawn charts into the page's data attributes), and at 800 px the
   * results table fits its box and the page: nothing cut off, no sideways scrolling of the page.
   */
  @Test
  void equalValuesDrawNoCollapsedAxisAndTheResultsTableFitsAt800Px() throws Exception {
    Path chromium = chromiumOrSkip();
    Path dir = Fixtures.allEqual(tmp.resolve("equal"));
    Path report = ReportWriter.write(dir);
    Path checked = dir.resolve("report-check.html");
    Files.writeString(
        checked,
        Files.readString(report).replace("</body>", NARROW_CHECK + "</body>"),
        StandardCharsets.UTF_8);
    String dom =
        browse(
            chromium, List.of("--window-size=800,3000", "--dump-dom", checked.toUri().toString()));
    Matcher m = CHECK.matcher(dom);
    assertTrue(m.find(), "the check script did not run; the page's DOM:\n" + head(dom));
    Map<String, String> check = parse(m.group(1));
    assertEquals("800", check.get("viewport"), check.toString());
    assertTrue(Integer.parseInt(check.get("images")) > 10, check.toString());
    assertEquals("", check.get("degenerate"), "charts whose axis repeats or lacks tick labels");
    assertEquals("6", check.get("rows"), check.toString());
    assertEquals("", check.get("cut"), "results table wider than its box or the page");
  }

  /**
   * Each changed setting of the results table reads on one line, name and value together, and
   * nothing is cut off: on a wide screen the settings column is as wide as its longest setting; on
   * a narrower one each row is a card. (Breaking anywhere once let the column shrink to a dozen
   * characters and split names such as checkpoint_completion_target over three lines.)
   */
  @Test
  void eachChangedSettingReadsOnOneLineAndNothingIsCutOff() throws Exception {
    Path chromium = chromiumOrSkip();
    Path dir = Fixtures.withLongSettings(tmp.resolve("long"));
    Path report = ReportWriter.write(dir);
    Path checked = dir.resolve("report-lines.html");
    Files.writeString(
        checked,
        Files.readString(report).replace("</body>", ONE_LINE_CHECK + "</body>"),
        StandardCharsets.UTF_8);
    // 1300 px: the table; 1100 px: rows as cards (the table would need about 1180 px)
    for (int width : List.of(1300, 1100)) {
      String dom =
          browse(
              chromium,
              List.of(
                  "--window-size=" + width + ",3000", "--dump-dom", checked.toUri().toString()));
      Matcher m = CHECK.matcher(dom);
      assertTrue(m.find(), "the check script did not run; the page's DOM:\n" + head(dom));
      Map<String, String> check = parse(m.group(1));
      assertEquals(String.valueOf(width), check.get("viewport"), check.toString());
      assertTrue(Integer.parseInt(check.get("settings")) >= 48, check.toString());
      assertEquals("", check.get("broken"), "settings split over more than one line at " + width);
      assertEquals("", check.get("cut"), "results table wider than its box or the page");
    }
  }

  /**
   * After load: every name=value line of the results table's settings cells, and those whose text
   * the browser laid out on more than one line; the table's width against its box and the page.
   */
  private static final String ONE_LINE_CHECK =
      """
      <script>
      window.addEventListener('load', function () {
        var table = document.getElementById('results-table'), box = table.parentElement;
        var lines = 0, broken = [], cut = [], vw = document.documentElement.clientWidth;
        table.querySelectorAll('td.settings').forEach(function (td) {
          td.childNodes.forEach(function (n) {
            if (n.nodeType !== Node.TEXT_NODE || n.textContent.indexOf('=') < 0) return;
            lines++;
            var r = document.createRange();
            r.selectNodeContents(n);
            var tops = {};
            Array.prototype.forEach.call(r.getClientRects(), function (c) {
              tops[Math.round(c.top)] = true;
            });
            if (Object.keys(tops).length > 1) broken.push(n.textContent);
          });
        });
        if (table.scrollWidth > box.clientWidth + 1) cut.push('table ' + table.scrollWidth + ' over box ' + box.clientWidth);
        if (document.documentElement.scrollWidth > vw + 1) cut.push('page ' + document.documentElement.scrollWidth + ' over ' + vw);
        var pre = document.createElement('pre');
        pre.id = 'pgknob-check';
        pre.textContent = 'viewport=' + window.innerWidth + ';settings=' + lines
            + ';broken=' + broken.join(',') + ';cut=' + cut.join(',') + ';';
        document.body.appendChild(pre);
      });
      </script>
      """;

  /**
   * After load: each chart's tick labels (fewer than two, or one repeated, is a collapsed axis);
   * the results table's width against its box, the viewport and the page's.
   */
  private static final String NARROW_CHECK =
      """
      <script>
      window.addEventListener('load', function () {
        var bad = [], imgs = document.querySelectorAll('img[data-chart]');
        imgs.forEach(function (img) {
          ['data-x-ticks', 'data-y-ticks'].forEach(function (a) {
            var t = (img.getAttribute(a) || '').split('|').filter(function (x) { return x; });
            var distinct = t.filter(function (x, i) { return t.indexOf(x) === i; });
            if (t.length < 2 || distinct.length !== t.length) {
              bad.push(img.getAttribute('data-chart') + ' ' + a + '=' + t.join('|'));
            }
          });
        });
        var table = document.getElementById('results-table'), box = table.parentElement;
        var cut = [], vw = document.documentElement.clientWidth;
        if (table.scrollWidth > box.clientWidth + 1) cut.push('table ' + table.scrollWidth + ' over box ' + box.clientWidth);
        if (table.getBoundingClientRect().right > vw + 1) cut.push('right ' + table.getBoundingClientRect().right + ' over ' + vw);
        if (document.documentElement.scrollWidth > vw + 1) cut.push('page ' + document.documentElement.scrollWidth + ' over ' + vw);
        table.querySelectorAll('td').forEach(function (td) {
          if (td.getBoundingClientRect().right > box.getBoundingClientRect().right + 1) cut.push('cell ' + td.textContent.slice(0, 20));
        });
        var pre = document.createElement('pre');
        pre.id = 'pgknob-check';
        pre.textContent = 'viewport=' + window.innerWidth + ';images=' + imgs.length
            + ';degenerate=' + bad.join(',') + ';rows='
            + table.querySelectorAll('tr[data-row]').length + ';cut=' + cut.join(',') + ';';
        document.body.appendChild(pre);
      });
      </script>
      """;

  /**
   * A script for a copy of the page: after load, for each image whether it decoded and how many
   * pixels carry one of its series' colours; and the results table's row names. --dump-dom
   * serializes the DOM after the load event, so the answer is read from a pre element.
   */
  private static String checkScript(ReportModel model) {
    StringBuilder colours = new StringBuilder("{");
    for (ChartModel c : model.charts()) {
      List<String> rgb = new ArrayList<>();
      for (ChartModel.Series s : c.series()) {
        if (!s.points().isEmpty()) {
          addChromatic(rgb, Palette.colour(s.colour()));
        }
      }
      // A range marked from the data (the measured window) is drawn translucent over white.
      long ranges =
          c.markers().stream().filter(mk -> mk.xEnd() != null && mk.colour() == null).count();
      for (int i = 0; i < ranges && i < Palette.RANGES.size(); i++) {
        addChromatic(rgb, overWhite(Palette.RANGES.get(i)));
      }
      c.markers().stream()
          .filter(mk -> mk.xEnd() != null && mk.colour() != null)
          .forEach(mk -> addChromatic(rgb, overWhite(Palette.shade(mk.colour()))));
      colours.append('"').append(c.id()).append("\":[").append(String.join(",", rgb)).append("],");
    }
    colours.append('}');
    return """
        <script>
        window.addEventListener('load', function () {
          var colours = COLOURS, broken = [], empty = [];
          var imgs = document.querySelectorAll('img');
          imgs.forEach(function (img) {
            var id = img.getAttribute('data-chart');
            if (!(img.complete && img.naturalWidth > 0 && img.naturalHeight > 0)) {
              broken.push(id); return;
            }
            var c = document.createElement('canvas');
            c.width = img.naturalWidth; c.height = img.naturalHeight;
            var g = c.getContext('2d'); g.drawImage(img, 0, 0);
            var d = g.getImageData(0, 0, c.width, c.height).data, hits = 0;
            var want = colours[id] || [];
            for (var i = 0; i < d.length; i += 4) {
              for (var k = 0; k < want.length; k++) {
                if (Math.abs(d[i] - want[k][0]) + Math.abs(d[i + 1] - want[k][1])
                    + Math.abs(d[i + 2] - want[k][2]) < 30) { hits++; break; }
              }
            }
            if (hits < 100) empty.push(id + '(' + hits + ')');
          });
          var rows = Array.prototype.map.call(
              document.querySelectorAll('#results-table tr[data-row]'),
              function (r) { return r.getAttribute('data-row'); });
          var pre = document.createElement('pre');
          pre.id = 'pgknob-check';
          pre.textContent = 'images=' + imgs.length + ';broken=' + broken.join(',')
              + ';empty=' + empty.join(',') + ';rows=' + rows.join(',') + ';';
          document.body.appendChild(pre);
        });
        </script>
        """
        .replace("COLOURS", colours);
  }

  /** Greys and black are left out: the title and axes would match them without any data. */
  private static void addChromatic(List<String> rgb, Color c) {
    int max = Math.max(c.getRed(), Math.max(c.getGreen(), c.getBlue()));
    int min = Math.min(c.getRed(), Math.min(c.getGreen(), c.getBlue()));
    if (max - min >= 20) {
      rgb.add("[" + c.getRed() + "," + c.getGreen() + "," + c.getBlue() + "]");
    }
  }

  private static Color overWhite(Color c) {
    double a = c.getAlpha() / 255.0;
    return new Color(
        (int) Math.round(c.getRed() * a + 255 * (1 - a)),
        (int) Math.round(c.getGreen() * a + 255 * (1 - a)),
        (int) Math.round(c.getBlue() * a + 255 * (1 - a)));
  }

  private String browse(Path chromium, List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(chromium.toString());
    cmd.addAll(
        List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--user-data-dir=" + Files.createTempDirectory(tmp, "profile")));
    cmd.addAll(args);
    Path out = Files.createTempFile(tmp, "chromium", ".out");
    Path err = Files.createTempFile(tmp, "chromium", ".err");
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(BROWSER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail(
          "chromium did not finish in "
              + BROWSER_TIMEOUT_SECONDS
              + " s: "
              + head(Files.readString(err)));
    }
    assertEquals(0, p.exitValue(), "chromium failed: " + head(Files.readString(err)));
    return Files.readString(out);
  }

  private static Path chromiumOrSkip() {
    Optional<Path> found = findChromium();
    if (found.isEmpty()) {
      String message =
          "chromium is missing: install it with `apt-get install -y chromium` (.ci/run does)";
      if (System.getenv("CI") != null) {
        fail(message + "; the browser test must not be skipped in CI");
      }
      Assumptions.assumeTrue(false, message);
    }
    return found.get();
  }

  private static Optional<Path> findChromium() {
    List<Path> candidates = new ArrayList<>();
    candidates.add(Path.of("/usr/bin/chromium"));
    String path = System.getenv("PATH");
    if (path != null) {
      for (String d : path.split(File.pathSeparator)) {
        candidates.add(Path.of(d, "chromium"));
      }
    }
    return candidates.stream().filter(Files::isExecutable).findFirst();
  }

  private static Map<String, String> parse(String check) {
    Map<String, String> out = new TreeMap<>();
    for (String part : check.split(";")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        out.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return out;
  }

  private static long colourfulPixels(BufferedImage img) {
    long n = 0;
    for (int y = 0; y < img.getHeight(); y += 2) {
      for (int x = 0; x < img.getWidth(); x += 2) {
        int rgb = img.getRGB(x, y);
        int r = (rgb >> 16) & 0xff;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) {
          n++;
        }
      }
    }
    return n;
  }

  private static String head(String s) {
    return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
  }
}
