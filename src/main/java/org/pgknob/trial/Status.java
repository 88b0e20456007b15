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
  /** The disk guardrail stopped the trial: the server's data or WAL disk ran low on free space. */
  DISK_GUARD,
  /** The trial overran its time. */
  TIMEOUT,
  /**
   * The server could not be reached during the trial and stayed up meanwhile (a dropped link, a
   * network down): nothing is known of the configuration, and no optimizer learns from it.
   */
  UNREACHABLE;

  /** A guardrail stopped the trial: the configuration took more of the machine than it may. */
  public boolean guardTrip() {
    return this == MEMORY_GUARD || this == DISK_GUARD;
  }
}
