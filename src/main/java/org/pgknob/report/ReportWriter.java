package org.pgknob.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.AtomicFiles;
import org.pgknob.PgknobException;
import org.pgknob.runs.Summary;

/**
 * Writes {@code runs/<id>/report.html} and {@code runs/<id>/charts/*.png} from the session folder
 * alone: at the end of a session, and by {@code pgknob report} at any time, also mid-session.
 */
public final class ReportWriter {
  static final String REPORT_FILE = "report.html";
  static final String CHARTS_DIR = "charts";

  private ReportWriter() {}

  /**
   * Reads {@code runDir}, draws every chart and writes the report beside the session's files.
   *
   * @return the report's path
   * @throws PgknobException when the folder is not a session or cannot be written
   */
  public static Path write(Path runDir) {
    SessionData data = SessionLoader.load(runDir);
    ReportModel model = ReportModelBuilder.build(data);
    Path charts = runDir.resolve(CHARTS_DIR);
    Map<String, ChartRenderer.Rendered> drawn = new LinkedHashMap<>();
    try {
      Files.createDirectories(charts);
      for (ChartModel c : model.charts()) {
        ChartRenderer.Rendered chart = ChartRenderer.render(c);
        drawn.put(c.id(), chart);
        writeAtomically(charts.resolve(c.id() + ".png"), chart.png());
      }
      Path report = runDir.resolve(REPORT_FILE);
      writeAtomically(
          report, HtmlReport.render(model, drawn, verdict(data)).getBytes(StandardCharsets.UTF_8));
      return report;
    } catch (IOException e) {
      throw new PgknobException(
          "cannot write the report in " + runDir + ": " + e.getMessage(),
          "check that the folder is writable and the disk is not full",
          e);
    } catch (UncheckedIOException e) {
      throw new PgknobException(
          "cannot draw a chart for " + runDir + ": " + e.getCause().getMessage(),
          "check that the folder is writable and the disk is not full",
          e);
    }
  }

  /**
   * Writes the report of a session that ended early (stopped by a signal, or failed) from its
   * folder's files, for the lifecycle code to call on its way out: never throws, returns the line
   * to print ("report: PATH", or why there is none).
   */
  public static String writeAfterStop(Path runDir) {
    try {
      return "report: " + write(runDir);
    } catch (PgknobException e) {
      return "the report could not be written: " + e.oneLine();
    } catch (RuntimeException e) {
      return "the report could not be written: " + e;
    }
  }

  private static Summary.Verdict verdict(SessionData data) {
    return data.summary() == null ? null : data.summary().verdict();
  }

  /** Write-then-rename, so a reader never sees half a report (a browser refreshing mid-run). */
  private static void writeAtomically(Path file, byte[] bytes) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.write(tmp, bytes);
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      AtomicFiles.deleteQuietly(tmp, e);
      throw e;
    }
  }
}
