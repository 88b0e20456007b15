package org.pgknob.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.pgknob.workload.Progress;

/**
 * Shows a preparation's progress: a bar redrawn in place on a terminal, or plain lines (start, each
 * quarter, end) when the output goes to a file or a pipe.
 */
final class ConsoleProgress implements Progress {
  private static final int BAR_WIDTH = 30;
  private static final long REDRAW_NANOS = 200_000_000L;

  private final PrintWriter out;
  private final boolean terminal;
  private String phase = "";
  private String unit = "";
  private long total;
  private long done;
  private long started;
  private long lastDrawn;
  private int lastQuarter;

  ConsoleProgress(PrintWriter out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  /** Bars when pgknob's standard output is a terminal. */
  static ConsoleProgress forConsole(PrintWriter out) {
    return new ConsoleProgress(out, System.console() != null);
  }

  @Override
  public synchronized void begin(String phase, long totalUnits, String unit) {
    this.phase = phase;
    this.unit = unit;
    this.total = totalUnits;
    this.done = 0;
    this.started = System.nanoTime();
    this.lastQuarter = 0;
    if (terminal) {
      draw();
    } else {
      out.println(phase + " ...");
      out.flush();
    }
  }

  @Override
  public synchronized void advance(long units) {
    done += units;
    long now = System.nanoTime();
    if (terminal) {
      if (now - lastDrawn >= REDRAW_NANOS) {
        draw();
      }
    } else if (total > 0) {
      int quarter = (int) Math.min(3, done * 4 / total);
      if (quarter > lastQuarter) {
        lastQuarter = quarter;
        out.printf(Locale.ROOT, "%s: %d%%%n", phase, quarter * 25);
        out.flush();
      }
    }
  }

  @Override
  public synchronized void end() {
    double seconds = (System.nanoTime() - started) / 1e9;
    String line = String.format(Locale.ROOT, "%s: done in %.1f s", phase, seconds);
    out.print(terminal ? "\r" + line + " ".repeat(BAR_WIDTH + 30) + "\n" : line + "\n");
    out.flush();
  }

  private void draw() {
    lastDrawn = System.nanoTime();
    double seconds = (lastDrawn - started) / 1e9;
    if (total <= 0) {
      out.printf(Locale.ROOT, "\r%s ... %.0f s", phase, seconds);
    } else {
      double fraction = Math.min(1.0, (double) done / total);
      int filled = (int) (fraction * BAR_WIDTH);
      out.printf(
          Locale.ROOT,
          "\r%s [%s%s] %3.0f%% %,d %s %.0f s",
          phase,
          "#".repeat(filled),
          " ".repeat(BAR_WIDTH - filled),
          fraction * 100,
          done,
          unit,
          seconds);
    }
    out.flush();
  }
}
