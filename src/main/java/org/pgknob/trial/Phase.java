package org.pgknob.trial;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
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
  RACE,
  /**
   * A run of the PGTune-style configuration in a phase of its own: written by sessions recorded
   * before validation rounds took it in; read, never planned.
   */
  PGTUNE;

  /** The name written in trials.jsonl: baseline, sweep, bayes, validation, reference, race. */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The phase a label names, as trials.jsonl writes it. */
  @JsonCreator
  public static Phase of(String label) {
    for (Phase p : values()) {
      if (p.label().equals(label)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown phase '" + label + "': expected one of baseline, sweep, bayes, validation");
  }

  /** Baseline and sweeps: the one-at-a-time trials a model of knob effects starts from. */
  public boolean isOneAtATime() {
    return this == BASELINE || this == SWEEP;
  }
}
