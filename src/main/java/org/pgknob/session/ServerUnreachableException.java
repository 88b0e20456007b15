package org.pgknob.session;

import org.pgknob.PgknobException;

/**
 * The session's server stopped answering and did not answer again within {@code --server-wait}: the
 * session is marked stopped with its restore file pending, so that {@code pgknob restore} and
 * {@code pgknob resume} take over once the server is back. Nothing more can be done on the server
 * now, so whoever catches this does not try to restore.
 */
public final class ServerUnreachableException extends PgknobException {
  private static final long serialVersionUID = 1L;

  ServerUnreachableException(String cause, String fix) {
    super(cause, fix);
  }
}
