package org.pgknob.trial;

import org.pgknob.workload.SecondSample;

/** Hears a trial's steps and its live seconds, for progress output. Must return quickly. */
public interface TrialListener {
  TrialListener NONE = new TrialListener() {};

  /** A step began: reset, apply, rampup, window, checkpoint, ... */
  default void step(String name) {}

  /** One second of the workload's run. */
  default void second(SecondSample sample) {}
}
