package org.pgknob.workload;

import org.pgknob.server.Target;

/**
 * A workload a trial runs against a target server. A session calls, once: {@link #prepare}; then
 * for every trial: {@link #reset} (timed), apply the configuration, {@link #run}.
 *
 * <p>Implementations work only through {@link Target}'s connections, so they run the same on a
 * managed cluster and on an existing server. Every method blocks until done and throws {@link
 * org.pgknob.PgknobException} for conditions the user can fix (a database that is not pgknob's, too
 * few connections, a server that stops answering). Its owner closes it when the session or command
 * ends ({@link #close}).
 */
public interface Workload extends AutoCloseable {
  /** A short name for logs and reports, e.g. "tprocc". */
  String name();

  /** Builds the workload's data on {@code target} if it is missing, and keeps a pristine copy. */
  void prepare(Target target, Progress progress);

  /**
   * Puts the data back as {@link #prepare} left it, so every trial starts from the same database.
   *
   * @return seconds the reset took (0 when resets are switched off)
   */
  double reset(Target target);

  /**
   * Runs the workload once: ramp-up, the measured window, then a checkpoint that accounts for the
   * work the window deferred. {@code listener} hears every second of the run.
   */
  WorkloadResult run(Target target, RunListener listener);

  /** How many connections {@link #run} holds at once (virtual users plus a monitor). */
  int connections();

  /**
   * Lets go of what the workload keeps between runs (its driver's pooled connections), so that it
   * leaves no connection on the server once its owner is done with it. Nothing by default.
   */
  @Override
  default void close() {}
}
