package org.pgknob.space;

/** How a numeric knob's range maps to the unit interval. */
public enum Scale {
  LINEAR,
  /** Equal steps in the logarithm: memory sizes and times, whose effect is multiplicative. */
  LOG
}
