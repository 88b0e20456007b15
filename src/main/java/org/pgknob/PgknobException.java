package org.pgknob;

/**
 * An error the user can act on: it names the cause and the fix in one message, which the CLI prints
 * as one line (the stack trace only with {@code --debug}).
 *
 * <p>Every package throws it for conditions a user can cause (a bad file, an unreachable server, a
 * setting out of range). Programming errors stay ordinary runtime exceptions.
 */
public class PgknobException extends RuntimeException {
  private final String fix;

  public PgknobException(String cause, String fix) {
    this(cause, fix, null);
  }

  public PgknobException(String cause, String fix, Throwable underlying) {
    super(cause, underlying);
    this.fix = fix;
  }

  /** What the user should do about it; may be empty when the cause says it all. */
  public String fix() {
    return fix == null ? "" : fix;
  }

  /** The one line the CLI prints: cause, then fix. */
  public String oneLine() {
    String cause = getMessage();
    return fix().isEmpty() ? cause : cause + " (" + fix() + ")";
  }
}
