package org.pgknob.trial;

import java.util.Locale;

/**
 * The phases of a session, in the order they run; each trial belongs to one. Reference and race
 * runs take slots of the Bayesian phase, between its proposals.
 */
public enum Phase {
  BASELINE,
  SWEEP,
  BAYES,
  VALIDATION,
  /** A run of the defaults in a Bayesian slot, to follow the machine's drift. */
  REFERENCE,
  /** A run of the incumbent or a challenger in a Bayesian slot: one side of a race pair. */
  RACE;

  /** The name written in trials.jsonl: baseline, sweep, bayes, validation, reference, race. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
