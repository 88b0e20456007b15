package org.pgknob.workload;

/**
 * The deferred work a window left behind and the known causes of variance inside it: the CHECKPOINT
 * run right after it (its time and the buffers it wrote), the checkpoints and the autovacuum or
 * autoanalyze runs that finished inside the window, and the CHECKPOINT run before it so that it
 * started from a clean state.
 *
 * @param afterWindowSeconds time of the CHECKPOINT after the window
 * @param afterWindowBuffers buffers it wrote
 * @param checkpointsInWindow checkpoints started inside the window
 * @param autovacuumsInWindow autovacuum and autoanalyze runs that finished inside the window (0 in
 *     records written before pgknob counted them)
 * @param beforeWindowSeconds time of the CHECKPOINT between ramp-up and window (0: none ran)
 */
public record CheckpointAccount(
    double afterWindowSeconds,
    long afterWindowBuffers,
    long checkpointsInWindow,
    long autovacuumsInWindow,
    double beforeWindowSeconds) {
  public static final CheckpointAccount NONE = new CheckpointAccount(0, 0, 0);

  /** An account without autovacuum counts or a checkpoint before the window. */
  public CheckpointAccount(
      double afterWindowSeconds, long afterWindowBuffers, long checkpointsInWindow) {
    this(afterWindowSeconds, afterWindowBuffers, checkpointsInWindow, 0, 0);
  }
}
