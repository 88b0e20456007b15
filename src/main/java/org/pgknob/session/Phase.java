package org.pgknob.session;

import java.util.Locale;

/** The phases of a session, in the order they run; each trial belongs to one. */
public enum Phase {
  BASELINE,
  SWEEP,
  BAYES,
  VALIDATION;

  /** The name written in trials.jsonl: baseline, sweep, bayes, validation. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
