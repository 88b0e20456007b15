package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;

class ReportWriterTest {
  @TempDir Path tmp;

  @Test
  void writesOneSelfContainedPageAndEveryChartAsAPng() throws IOException {
    Path dir = Fixtures.copy(tmp.resolve("run"));
    Path report = ReportWriter.write(dir);
    String html = Files.readString(report);
    ReportModel model = ReportModelBuilder.build(SessionLoader.load(dir));
    for (ChartModel c : model.charts()) {
      Path png = dir.resolve("charts").resolve(c.id() + ".png");
      BufferedImage img = ImageIO.read(png.toFile());
      assertTrue(img.getWidth() > 500, c.id());
      assertTrue(distinctColours(img) > 20, c.id() + " looks blank");
      assertTrue(html.contains("data-chart=\"" + c.id() + "\""), c.id());
    }
    assertEquals(model.charts().size(), count(html, "<img "));
    assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "fetches");
    assertFalse(html.contains("<script"), "the report needs no script");
    assertFalse(html.contains("<link"), "styles are inline");
    assertTrue(html.contains("<tr data-row=\"restart/tps\">"));
  }

  @Test
  void aReportWrittenWhileTheJvmStopsHasItsCharts() throws Exception {
    // The lifecycle code writes the report of a session stopped by a signal from a shutdown hook;
    // nothing the charts use may need to register another hook then.
    Path dir = Fixtures.copy(tmp.resolve("run"));
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ReportOnShutdown.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the JVM did not stop");
    assertTrue(output.startsWith("report: "), output);
    assertTrue(Files.readString(dir.resolve("report.html")).contains("<img "));
  }

  @Test
  void rewritingTheReportReplacesIt() throws IOException {
    Path dir = Fixtures.copy(tmp.resolve("run"));
    ReportWriter.write(dir);
    Files.writeString(dir.resolve("report.html"), "stale");
    ReportWriter.write(dir);
    assertTrue(Files.readString(dir.resolve("report.html")).startsWith("<!DOCTYPE html>"));
    try (var files = Files.list(dir)) {
      assertTrue(files.noneMatch(f -> f.toString().endsWith(".tmp")));
    }
  }

  @Test
  void onlyFailedTrialsGiveAReportThatSaysSoWithoutCharts() throws IOException {
    Path dir = Fixtures.onlyFailed(tmp.resolve("run"));
    String html = Files.readString(ReportWriter.write(dir));
    assertFalse(html.contains("<img "));
    assertTrue(html.contains("No trial finished successfully"));
    assertTrue(html.contains("REJECTED"));
  }

  @Test
  void truncatedSessionReportSaysOneLineWasIncomplete() throws IOException {
    Path dir = Fixtures.truncated(tmp.resolve("run"));
    String html = Files.readString(ReportWriter.write(dir));
    assertTrue(
        html.contains(
            "1 line of trials.jsonl was incomplete (the session was stopped while writing it)."));
  }

  @Test
  void missingSummaryReportSaysValidationWasNotReached() throws IOException {
    Path dir = Fixtures.withoutSummary(tmp.resolve("run"));
    String html = Files.readString(ReportWriter.write(dir));
    assertTrue(html.contains("The session has not reached validation yet"));
  }

  @Test
  void trialsDisturbedByOtherProcessesAreMarkedInTheTrialTableAndNamedAtTheTop()
      throws IOException {
    Path dir = Fixtures.withForeignCpu(tmp.resolve("run"), 1.3, 7, 12);
    String html = Files.readString(ReportWriter.write(dir));
    assertEquals(2, count(html, "class=\"disturbed\""), "one marker per disturbed trial");
    String row7 = tableRow(html, "<tr><td>7</td>");
    assertTrue(
        row7.contains(
            "disturbed: other processes used 1.3 of 2 cores during the window;"
                + " numbers may be low"),
        row7);
    assertTrue(
        html.contains(
            "2 trials (7, 12) ran while other processes on the host used over 12.5% of its cores"),
        "notice at the top");
  }

  @Test
  void trialsThatRanTheirWindowAgainSayWhatTheFirstMeasuredInTheTableAndAreNamedAtTheTop()
      throws IOException {
    Path dir = Fixtures.withDisturbedWindow(tmp.resolve("run"), 12);
    String html = Files.readString(ReportWriter.write(dir));
    assertEquals(1, count(html, "class=\"ran-again\""), "one marker per repeated trial");
    String row12 = tableRow(html, "<tr><td>12</td>");
    assertTrue(
        row12.contains(
            "ran again: its first window, 1541.5 TPS, ran while other processes used 1.1 of 2"
                + " cores, and the host was quiet 12 s later"),
        row12);
    assertTrue(
        html.contains(
            "1 trial (12) ran its window again once the host was quiet, after other processes"
                + " disturbed the first"),
        "notice at the top");
    assertFalse(html.contains("class=\"disturbed\""), "the window it kept was quiet");
  }

  @Test
  void aRowWhoseWalTheDiskCannotHoldSaysSoInItsVerdictCell() throws IOException {
    Path dir = Fixtures.copy(tmp.resolve("run"));
    Path summary = dir.resolve("summary.json");
    var tree = (ObjectNode) Json.mapper().readTree(summary.toFile());
    for (var row : tree.withArray("results")) {
      if (row.get("name").asText().equals("pgtune")) {
        ((ObjectNode) row)
            .put("diskWarning", "the WAL it may keep, 8GB (max_wal_size), exceeds the disk limit");
      }
    }
    Json.mapper().writeValue(summary.toFile(), tree);
    String html = Files.readString(ReportWriter.write(dir));
    String row = tableRow(html, "<tr data-row=\"pgtune\">");
    assertTrue(
        row.contains(
            "; too much WAL for the disk: the WAL it may keep, 8GB (max_wal_size), exceeds the"
                + " disk limit</td>"),
        row);
  }

  @Test
  void foreignCpuAtTheThresholdIsNotADisturbance() throws IOException {
    Path dir = Fixtures.withForeignCpu(tmp.resolve("run"), 0.25, 7);
    String html = Files.readString(ReportWriter.write(dir));
    assertFalse(html.contains("class=\"disturbed\""));
    assertFalse(html.contains("ran while other processes"));
  }

  /** The table row of {@code html} that begins with {@code start}, up to its end tag. */
  private static String tableRow(String html, String start) {
    String row = html.substring(html.indexOf(start));
    return row.substring(0, row.indexOf("</tr>"));
  }

  private static int distinctColours(BufferedImage img) {
    Set<Integer> seen = new HashSet<>();
    for (int y = 0; y < img.getHeight(); y += 3) {
      for (int x = 0; x < img.getWidth(); x += 3) {
        seen.add(img.getRGB(x, y));
      }
    }
    return seen.size();
  }

  private static int count(String s, String part) {
    int n = 0;
    for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
