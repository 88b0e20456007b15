package org.pgknob.space;

/** The kind of value a knob takes. */
public enum KnobType {
  /** Whole numbers, in the knob's unit. */
  INTEGER,
  /** Real numbers, in the knob's unit. */
  REAL,
  /** One of a list of names. */
  ENUM,
  /** on or off; treated as a two-valued enum. */
  BOOL
}
