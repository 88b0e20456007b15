package org.pgknob.workload;

/**
 * The deferred work a window left behind: the CHECKPOINT run right after it (its time and the
 * buffers it wrote), and the checkpoints that happened inside the window.
 */
public record CheckpointAccount(
    double afterWindowSeconds, long afterWindowBuffers, long checkpointsInWindow) {
  public static final CheckpointAccount NONE = new CheckpointAccount(0, 0, 0);
}
