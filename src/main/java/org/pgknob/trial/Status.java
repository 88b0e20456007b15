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
  TIMEOUT;

  public boolean isFailure() {
    return this != OK;
  }
}
