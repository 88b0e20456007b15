package org.pgknob.server;

import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * Puts a target's original settings back when the JVM is stopped (Ctrl-C, SIGTERM) while pgknob has
 * settings applied. The hook waits for a change in flight (the target's lock) and then restores for
 * good: the session's thread, which runs on while the hooks do, can change nothing after it ({@link
 * Target#restoreOriginalsForGood}); restoring twice is harmless. A kill -9 runs no hook: {@code
 * pgknob restore} reads the restore file instead.
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
    return onShutdown(target, err, first, restored -> "");
  }

  /**
   * As {@link #onShutdown(Target, PrintWriter, Supplier)}, then {@code after} runs with what was
   * restored ("restored the original settings (N changed back)", or null when restoring failed) and
   * returns lines to print after the message (e.g. the session's verdict), or empty.
   */
  public static Restorer onShutdown(
      Target target,
      PrintWriter err,
      Supplier<String> first,
      java.util.function.Function<String, String> after) {
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
                ApplyReport report = target.restoreOriginalsForGood();
                err.println(
                    "pgknob: stopped; restored the original settings of "
                        + target.describe()
                        + " ("
                        + report.changes().size()
                        + " changed back)"
                        + (note.isEmpty() ? "" : "; " + note));
                printAfter(
                    err,
                    after,
                    "restored the original settings of "
                        + target.describe()
                        + " ("
                        + report.changes().size()
                        + " changed back)");
                // The settings are back and nothing can change them now: another pgknob may
                // take the server (a failed restore keeps the lock until the JVM is gone).
                ServerLock.releaseHeldOn(target.identity());
              } catch (RestoreNotRecordedException e) {
                err.println("pgknob: stopped; " + e.oneLine());
                printAfter(err, after, "restored the original settings of " + e.server());
              } catch (RuntimeException e) {
                err.println(
                    "pgknob: stopped, but restoring failed: "
                        + e.getMessage()
                        + " (run: pgknob restore "
                        + target.restoreFile()
                        + ")");
                printAfter(err, after, null);
              }
              err.flush();
            },
            "pgknob-restore");
    Runtime.getRuntime().addShutdownHook(hook);
    return new Restorer(hook);
  }

  private static void printAfter(
      PrintWriter err, java.util.function.Function<String, String> after, String restored) {
    try {
      String text = after.apply(restored);
      if (!text.isEmpty()) {
        err.println(text);
      }
    } catch (RuntimeException e) {
      // the restore message above is what matters; a verdict that cannot be written is not
    }
  }

  /**
   * Waits until the hook, once the JVM runs it, has restored and printed: a thread that learns of
   * the stop must not close the target under it. Returns at once when the hook never started.
   */
  public void awaitHook() {
    try {
      hook.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
