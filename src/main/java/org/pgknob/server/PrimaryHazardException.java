package org.pgknob.server;

import org.pgknob.PgknobException;

/**
 * A server that fell into a {@link PrimaryHazard} in the middle of a session: it ends the session
 * (the trial that found it is not the configuration's doing, so it is not kept), and the session's
 * end puts the original settings back.
 */
public final class PrimaryHazardException extends PgknobException {
  private static final long serialVersionUID = 1L;

  PrimaryHazardException(String cause, String fix) {
    super(cause, fix);
  }
}
