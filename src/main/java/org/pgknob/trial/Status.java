package org.pgknob.trial;

/** How a trial ended. Only {@link #OK} carries objective values. */
public enum Status {
  OK,
  /** The configuration stopped the server from starting, or the server died in the trial. */
  CRASHED,
  /** A known constraint (predicted memory, a relation, durability) refused it untried. */
  REJECTED,
  /** The memory guardrail stopped the trial. */
  MEMORY_GUARD,
  /** The trial overran its time. */
  TIMEOUT,
  /**
   * The server could not be reached during the trial and stayed up meanwhile (a dropped link, a
   * network down): nothing is known of the configuration, and no optimizer learns from it.
   */
  UNREACHABLE;
}
