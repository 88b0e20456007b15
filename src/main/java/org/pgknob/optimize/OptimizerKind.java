package org.pgknob.optimize;

import java.util.Locale;
import org.pgknob.PgknobException;

/** The optimizers {@code pgknob optimize --optimizer} offers. */
public enum OptimizerKind {
  BAYES,
  RANDOM,
  SWEEP;

  /** The name on the command line. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static OptimizerKind of(String label) {
    for (OptimizerKind k : values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    throw new PgknobException(
        "unknown optimizer '" + label + "'", "choose one of bayes, random, sweep");
  }
}
