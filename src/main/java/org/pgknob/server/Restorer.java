package org.pgknob.server;

import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * Puts a target's original settings back when the JVM is stopped (Ctrl-C, SIGTERM) while pgknob has
 * settings applied. The hook waits for a change in flight (the target's lock) and then restores;
 * restoring twice is harmless. A kill -9 runs no hook: {@code pgknob restore} reads the restore
 * file instead.
 */
public final class Restorer implements AutoCloseable {
  private final Thread hook;

  private Restorer(Thread hook) {
    this.hook = hook;
  }

  /** Installs the hook until {@link #close()}; messages go to {@code err}. */
  public static Restorer onShutdown(Target target, PrintWriter err) {
    return onShutdown(target, err, () -> "");
  }

  /**
   * Installs the hook until {@link #close()}. {@code first} runs before the restore (e.g. to mark a
   * session stopped) and returns a line to add to the message, or empty.
   */
  public static Restorer onShutdown(Target target, PrintWriter err, Supplier<String> first) {
    return onShutdown(target, err, first, () -> "");
  }

  /**
   * As {@link #onShutdown(Target, PrintWriter, Supplier)}, and {@code after} runs once the settings
   * are back (e.g. to write the stopped session's report) and returns a line to print, or empty.
   */
  public static Restorer onShutdown(
      Target target, PrintWriter err, Supplier<String> first, Supplier<String> after) {
    Thread hook =
        new Thread(
            () -> {
              String note;
              try {
                note = first.get();
              } catch (RuntimeException e) {
                note = "";
              }
              try {
                ApplyReport report = target.restoreOriginals();
                err.println(
                    "pgknob: stopped; restored the original settings of "
                        + target.describe()
                        + " ("
                        + report.changes().size()
                        + " changed back)"
                        + (note.isEmpty() ? "" : "; " + note));
              } catch (RuntimeException e) {
                err.println(
                    "pgknob: stopped, but restoring failed: "
                        + e.getMessage()
                        + " (run: pgknob restore "
                        + target.restoreFile()
                        + ")");
              }
              err.flush();
              try {
                String line = after.get();
                if (!line.isEmpty()) {
                  err.println("pgknob: " + line);
                }
              } catch (RuntimeException e) {
                err.println("pgknob: " + e);
              }
              err.flush();
            },
            "pgknob-restore");
    Runtime.getRuntime().addShutdownHook(hook);
    return new Restorer(hook);
  }

  /** Removes the hook (the JVM is not stopping: the caller handles restoring itself). */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down and the hook runs
    }
  }
}
