package org.pgknob.session;

import java.util.Locale;
import org.pgknob.PgknobException;

/**
 * What a session leaves on the server when it ends, as {@code --apply} names it. session.json keeps
 * it as {@code "applyBest": true|false}, the shape sessions recorded before this type had.
 */
public enum ApplyAtEnd {
  /** The original settings are restored (the default). */
  NONE,
  /** The best validated gain stays applied; without one, the originals are restored. */
  BEST;

  /** The word on the command line. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The choice a command-line word names.
   *
   * @throws PgknobException naming both words when {@code label} is neither
   */
  public static ApplyAtEnd of(String label) {
    for (ApplyAtEnd a : values()) {
      if (a.label().equals(label)) {
        return a;
      }
    }
    throw new PgknobException(
        "--apply takes none or best, but got '" + label + "'", "give --apply best or leave it out");
  }
}
