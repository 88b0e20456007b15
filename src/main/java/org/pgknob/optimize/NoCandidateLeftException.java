package org.pgknob.optimize;

import org.pgknob.PgknobException;

/** Thrown by {@link Optimizer#suggest()} when no admissible, new configuration could be found. */
public final class NoCandidateLeftException extends PgknobException {
  public NoCandidateLeftException(String optimizer, int draws) {
    super(
        optimizer
            + " found no new configuration that the space and the known constraints admit in "
            + draws
            + " draws",
        "widen the search space, relax the constraints, or allow repeats");
  }
}
