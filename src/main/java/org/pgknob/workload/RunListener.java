package org.pgknob.workload;

/**
 * Hears a running workload: its phases and every second of it (for a live TPS display). Called from
 * the workload's sampling thread; implementations must return quickly.
 */
public interface RunListener {
  RunListener NONE = new RunListener() {};

  /** A new phase began: "connect", "rampup", "window", "stop", "checkpoint". */
  default void phase(String name) {}

  /** One second of the run. */
  default void second(SecondSample sample) {}
}
