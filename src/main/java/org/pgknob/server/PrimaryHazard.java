package org.pgknob.server;

import org.pgknob.PgknobException;

/**
 * A state of a primary in which pgknob's workload would harm it ({@link PrimaryHazards}): what is
 * wrong, and what the user can do about it.
 *
 * @param cause what the server is doing and why pgknob's writes would make it worse
 * @param remedy what to change on the server, without what pgknob did or will do
 */
public record PrimaryHazard(String cause, String remedy) {
  /** The refusal before a command changed anything. */
  public PgknobException refusal() {
    return new PgknobException(cause, remedy + "; nothing was changed");
  }

  /**
   * The stop of a session (or a comparison) whose server fell into this state at trial {@code
   * trial}: the trial is not kept, and a resume runs it again.
   *
   * @param when "before" (found before the trial's reset) or "during" (found while its run stalled)
   */
  public PrimaryHazardException stop(int trial, String when) {
    return new PrimaryHazardException(
        when + " trial " + trial + ", " + cause,
        remedy + "; then resume the session, which runs trial " + trial + " again");
  }
}
