package org.pgknob.trial;

import org.pgknob.workload.SecondSample;

/** Hears a trial's steps and its live seconds, for progress output. Must return quickly. */
public interface TrialListener {
  TrialListener NONE = new TrialListener() {};

  /** A step began: reset, apply, rampup, window, checkpoint, ... */
  default void step(String name) {}

  /**
   * The trial's window was disturbed by other processes and the trial waits for the host to go
   * quiet, to run it again, or found quiet, or gave up: one line for people. A window run again
   * starts its seconds anew.
   */
  default void repeating(String what) {}

  /** One second of the workload's run. */
  default void second(SecondSample sample) {}
}
