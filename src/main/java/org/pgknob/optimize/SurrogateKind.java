package org.pgknob.optimize;

import java.util.Locale;
import org.pgknob.PgknobException;

/** The model of a Bayesian search, as {@code --surrogate} and session.json name it: gp or rf. */
public enum SurrogateKind {
  /** A Gaussian process (the default). */
  GP,
  /** A random forest. */
  RF;

  /** The name on the command line and in session.json. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The surrogate a label names, as session.json writes it. */
  public static SurrogateKind of(String label) {
    for (SurrogateKind k : values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    throw new PgknobException("unknown surrogate '" + label + "'", "choose gp or rf");
  }
}
